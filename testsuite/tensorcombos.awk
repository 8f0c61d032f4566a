# tensorcombos.awk: one operation's `ptxemit --describe` text in, one MIR
# statement per token combination of every variant out (testsuite/tensorcombos.sh).
#
# Variables: op (the operation), opi (its name as a file name), targets (a file
# of "TARGET LOWEST-PTX" lines). Every slot a variant lists is enumerated: each
# of its tokens, and empty too where it is optional; a fixed slot takes each
# token it allows. A slot of more than BIG tokens (the video byte selectors)
# takes each token once beside the first choice of the other slots, and they
# take every combination beside its first. A statement is written in PTX's
# spelling (the slots in print order, the fixed ones too; a noprint slot as a
# property), with operands of the kinds, types and group sizes the variant's
# lists give, for its variant's lowest target and PTX ISA version, in the
# kernel of its cta_group (ptxas refuses two cta_groups in one function). A
# variant with an optional operand gives two statements per combination:
# with it and without it.
#
# Each statement is also written with its modifier tokens in another order:
# the slots' classes (slots whose tokens overlap, such as mma's four types or
# two layouts) in reverse, each class's tokens in PTX's order, the fixed
# tokens left out; it must print the same PTX.
#
# The describe text is read twice (give the file twice): the first pass
# gathers every token each slot takes in any variant. Prints
# "S OPI TARGET PTX KERNEL COMBINATION<tab>TEXT<tab>TEXT IN THE OTHER ORDER"
# per statement, "P OPI TARGET PTX KERNEL<tab>TEXT" per value a kernel
# defines first, and at the end "count OP VARIANTS DESCRIBED BUILT STATEMENTS
# LISTED RULED" (DESCRIBED: the combinations written for, BIG slots counted
# once a token; LISTED: the full product the variant lines list; BUILT: those
# a statement was written for; RULED: those a "refused with" line of the
# describe text refuses on every target, not written); an operand it cannot
# write is reported as
# "unbuilt OP VARIANT: WHY".

function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }

# an operand or result line of the describe text, kept as its fields
function opnd(line, list, n,    name, rest, f, nf, i, hi, mult) {
	name = line; sub(/:.*/, "", name); sub(/^.* /, "", name)
	rest = line; sub(/^[^:]*: */, "", rest)
	nf = split(rest, f, /, /)
	list[n, "name"] = name
	list[n, "kind"] = f[1]
	list[n, "type"] = ""; list[n, "tslot"] = ""; list[n, "count"] = 0; list[n, "cslot"] = ""
	list[n, "space"] = ""; list[n, "sslot"] = ""; list[n, "imm"] = ""; list[n, "lo"] = ""
	list[n, "opt"] = 0; list[n, "sink"] = 0; list[n, "derive"] = ""; list[n, "group"] = 0
	list[n, "crd"] = ""; list[n, "crdn"] = 0; list[n, "geo"] = ""
	for (i = 2; i <= nf; i++) {
		if (f[i] ~ /^type from \./) {
			list[n, "tslot"] = substr(f[i], 12); sub(/ .*/, "", list[n, "tslot"])
			if (f[i] ~ /\(doubled\)/) list[n, "derive"] = "wide"
			if (f[i] ~ /\(halved\)/) list[n, "derive"] = "half"
		} else if (f[i] ~ /^type /) list[n, "type"] = substr(f[i], 6)
		else if (f[i] ~ /^a group of /) { list[n, "count"] = substr(f[i], 12) + 0; list[n, "group"] = 1 }
		else if (f[i] ~ /^a group sized by \./) list[n, "cslot"] = substr(f[i], 19)
		else if (f[i] ~ /^space from \./) { list[n, "sslot"] = substr(f[i], 13); sub(/ .*/, "", list[n, "sslot"]) }
		else if (f[i] ~ /^space /) list[n, "space"] = substr(f[i], 7)
		else if (f[i] ~ /^one of /) list[n, "imm"] = substr(f[i], 8)
		else if (f[i] ~ /^-?[0-9]+ to -?[0-9]+$/) {
			# the range's low end, or 0 where the range holds it (the low end
			# of a signed 64-bit range is out of range for a 32-bit operand)
			list[n, "lo"] = f[i]; sub(/ .*/, "", list[n, "lo"])
			hi = f[i]; sub(/.* /, "", hi)
			if (list[n, "lo"] + 0 <= 0 && hi + 0 >= 0) list[n, "lo"] = "0"
		}
		# a range that holds 0 where 0 is no value it takes: its least
		# positive power of two or multiple
		else if (f[i] == "not 0" && list[n, "lo"] == "0") list[n, "lo"] = mult != "" ? mult : 1
		else if (f[i] == "a power of two" && list[n, "lo"] + 0 <= 0) list[n, "lo"] = 1
		else if (f[i] ~ /^a multiple of /) mult = substr(f[i], 15)
		else if (f[i] ~ /^one per dimension of \./ && rest ~ /coordinates \[a, /) { list[n, "crd"] = f[i]; sub(/.*of \./, "", list[n, "crd"]) }
		else if (f[i] ~ /^[0-9]+ of them$/ && rest ~ /coordinates \[a, /) list[n, "crdn"] = f[i] + 0
		# a texture's or surface's: "(.geom 1d 1; a1d 2 (1 leading index); ...)"
		else if (f[i] ~ /^as many as its geometry takes \(\.geom /) {
			list[n, "geo"] = rest; sub(/^.*as many as its geometry takes \(\.geom /, "", list[n, "geo"])
			sub(/\)[^)]*$/, "", list[n, "geo"])
		}
		else if (f[i] == "optional") list[n, "opt"] = 1
		else if (f[i] == "only _") list[n, "sink"] = 1
	}
}

# the MIR type of an operand for the combination in tok[]
function typeof_(list, i,    t) {
	t = list[i, "type"]
	if (list[i, "tslot"] != "") t = tok[list[i, "tslot"]]
	if (t == "") return ""
	if (list[i, "derive"] == "wide") t = substr(t, 1, 1) (substr(t, 2) * 2)
	if (list[i, "derive"] == "half") t = substr(t, 1, 1) (substr(t, 2) / 2)
	return t
}

function group_of(list, i) { return list[i, "group"] || list[i, "cslot"] != "" }

function countof(list, i,    c) {
	if (list[i, "cslot"] != "") { c = tok[list[i, "cslot"]]; gsub(/[^0-9]/, "", c); return c + 0 }
	return list[i, "count"]
}

# the width in bits of a type (f16x2: 32), 0 where it has none (pred)
function width(t,    n, x) {
	n = t; sub(/^[a-z]+/, "", n); x = 1
	if (n ~ /x[0-9]+$/) { x = n; sub(/.*x/, "", x); sub(/x.*/, "", n) }
	return n ~ /^[0-9]+$/ ? n * x : 0
}

# whether a group of type t is the pieces of one register of the type the
# statement's one type slot names (mov's packing and unpacking): pieces are
# written as a list, (a, b) or several results, not as an array value. An
# operation of several type slots (mma's) takes its groups as arrays.
function pieces(t,    i, w, n) {
	# 8-bit values have no array: always a list
	if (width(t) == 8) return 1
	n = 0
	for (i = 1; i <= nslots; i++) n += typeslot[slot[i]]
	if (n != 1) return 0
	for (i = 1; i <= nslots; i++)
		if (typeslot[slot[i]] && tok[slot[i]] != "") {
			w = width(tok[slot[i]])
			return w > 0 && width(t) > 0 && width(t) < w
		}
	return 0
}

# a value of type t and count c (0: a scalar), defined once in the kernel's prelude
function value(t, c,    name) {
	name = "%v" t (c ? "_" c : "")
	if (!((mod, kern, name) in defined)) {
		defined[mod, kern, name] = 1
		if (t == "pred") {
			value("u32", 0)
			prelude(name ":pred = setp.ne %vu32, 0")
		} else if (width(t) == 8)
			# no mov writes an 8-bit value (ptxemit-mir(5): it lives in
			# a 16-bit or a true .b8 register); a load does
			prelude(name ":" t " = ld.global [%g]")
		else
			prelude(name ":" t (c ? "[" c "]" : "") " = mov " (t ~ /^f[0-9]+$/ ? "0.0" : "0"))
	}
	return name
}

# a line of the kernel's prelude: "P OPI TARGET PTX KERNEL<tab>TEXT"
function prelude(line) { print "P", opi, target, ptxv, kern "\t  " line }

# a line the kernel's prelude holds once: a label or a local array
function once(name, line) {
	if (!((mod, kern, name) in defined)) { defined[mod, kern, name] = 1; prelude(line) }
	return name
}

# the address of an operand in the space named, or "" for a space it has no
# address for. The module declares @sh (shared), @gl (global) and @cn
# (const) and gives each kernel a by-value parameter %pa (param); a kernel
# that needs one declares a local array @lo first.
function address(sp) {
	if (sp == "generic") return "[%p]"
	if (sp == "global") return "[%g]"
	if (sp == "shared" || sp == "shared::cta" || sp == "shared::cluster") return "[@sh]"
	if (sp == "tmem") return "[" value("u32", 0) "]"
	if (sp == "const") return "[@cn]"
	if (sp == "param") return "[%pa]"
	if (sp == "local") return "[" once("@lo", "local @lo : b64[64] align 16") "]"
	return ""
}

# a symbol in the space named (a shared array where the space is generic)
function symbol(sp) {
	if (sp == "global") return "@gl"
	if (sp == "const") return "@cn"
	return "@sh"
}

# the first literal of an allowed set ("4 8 16 with .cop ca; 16 with .cop
# cg": the set of the slot's token in the combination, else the first)
function oneof(spec,    sets, n, k, w, wf) {
	n = split(spec, sets, /; one of /)
	for (k = 1; k <= n; k++)
		if (match(sets[k], / with \.[^ ]+ [^ ;]+$/)) {
			w = substr(sets[k], RSTART + 7); split(w, wf, " ")
			if (tok[wf[1]] == wf[2]) { sub(/ .*/, "", sets[k]); return sets[k] }
		}
	sub(/[ ;].*/, "", sets[1])
	return sets[1]
}

# one operand of the statement, or "" where it cannot be written (why says why)
function operand(list, i,    k, t, c, sp) {
	k = list[i, "kind"]; t = typeof_(list, i); c = countof(list, i)
	if (k == "immediate") return list[i, "imm"] != "" ? oneof(list[i, "imm"]) : list[i, "lo"] != "" ? list[i, "lo"] : "0"
	if (k == "predicate") return value("pred", 0)
	# a label the prelude defines (a branch back to it is never taken: the
	# statements are judged, not run); a list of labels has two
	if (k == "label") return group_of(list, i) ? "(" once("^l", "^l:") ", ^l)" : once("^l", "^l:")
	if (k == "symbol") {
		sp = list[i, "space"]
		if (list[i, "sslot"] != "") sp = tok[list[i, "sslot"]] != "" ? tok[list[i, "sslot"]] : fixed[list[i, "sslot"]]
		return symbol(sp)
	}
	if (k == "address") {
		sp = list[i, "space"]
		if (list[i, "sslot"] != "") sp = tok[list[i, "sslot"]] != "" ? tok[list[i, "sslot"]] : fixed[list[i, "sslot"]] != "" ? fixed[list[i, "sslot"]] : "generic"
		if (address(sp) == "") { why = "an address in " sp; return "" }
		# a tensor map's coordinates, s32 values: one per dimension of
		# the slot named (.dim: 3d, three), or the count given
		c = list[i, "crdn"]
		if (list[i, "crd"] != "") { c = tok[list[i, "crd"]]; gsub(/[^0-9]/, "", c); c += 0 }
		if (c) return substr(address(sp), 1, length(address(sp)) - 1) ", (" list_of(value("s32", 0), c) ")]"
		# a texture's or surface's, as many as the geometry takes: the
		# leading indexes s32, the rest of the .ctype (surfaces: s32)
		if (list[i, "geo"] != "") {
			if ((c = geocoords(list[i, "geo"], tok["geom"] != "" ? tok["geom"] : fixed["geom"])) == "") { why = "the coordinates of ." tok["geom"]; return "" }
			return substr(address(sp), 1, length(address(sp)) - 1) ", (" c ")]"
		}
		return address(sp)
	}
	if (k == "value" || k == "register") {
		if (k == "value" && list[i, "imm"] != "") return oneof(list[i, "imm"])
		if (k == "value" && list[i, "lo"] != "") return list[i, "lo"]
		if (t == "") { why = "operand " list[i, "name"] " has no type"; return "" }
		if (c && pieces(t)) return "(" list_of(value(t, 0), c) ")"
		return value(t, c)
	}
	why = "a " k " operand"
	return ""
}

# n copies of s, comma-separated
function list_of(s, n,    r, k) { r = s; for (k = 2; k <= n; k++) r = r ", " s; return r }

# the coordinates of geometry g from the describe text's list geo
# ("1d 1; a1d 2 (1 leading index); ..."), or "" where it names no g
function geocoords(geo, g,    e, ne, k, w, n, ni, ct, r, j) {
	ne = split(geo, e, /; /)
	for (k = 1; k <= ne; k++) {
		split(e[k], w, " ")
		if (w[1] != g) continue
		n = w[2] + 0; ni = 0
		if (e[k] ~ /leading index/) { ni = e[k]; sub(/^[^(]*\(/, "", ni); ni += 0 }
		ct = tok["ctype"] != "" ? tok["ctype"] : fixed["ctype"] != "" ? fixed["ctype"] : "s32"
		r = ""
		for (j = 1; j <= n; j++) r = r (j > 1 ? ", " : "") value(j <= ni ? "s32" : ct, 0)
		return r
	}
	return ""
}

# a result: a fresh name for a scalar (a result is never read by a later
# statement, so no statement sees the space or value another one left in a
# name, such as a cvta's global address read as a shared one), several for
# pieces; a group is the kernel's value of its type and count (fresh groups
# would multiply the registers of the wgmma and tcgen05 kernels)
function result(list, i,    t, c, r, k) {
	if (list[i, "sink"]) return "_"
	t = typeof_(list, i); c = countof(list, i)
	if (t == "") { why = "result " list[i, "name"] " has no type"; return "" }
	if (c && pieces(t)) {
		r = ""
		for (k = 1; k <= c; k++) r = r (k > 1 ? ", " : "") "%d" ++nfresh ":" t
		return r
	}
	if (c) return value(t, c)
	return "%d" ++nfresh ":" t
}

# the statements of the current combination (tok[]): "S OPI TARGET PTX
# KERNEL COMBINATION<tab>TEXT<tab>TEXT IN THE OTHER ORDER"
function emit(    s, s2, g, props, i, r, r2, o, cta, nop, tail, dropped, lastopt) {
	s = op; s2 = op; props = ""
	for (i = 1; i <= nslots; i++) {
		if (noprint[i]) { if (tok[slot[i]] != "") props = props (props == "" ? "" : ", ") slot[i] " = " tok[slot[i]]; continue }
		if (tok[slot[i]] != "") s = s "." tok[slot[i]]
	}
	# the other order: classes last to first, each in PTX's order, without the
	# fixed tokens the operation always has (a fixed slot that takes no other)
	for (g = ngroups; g >= 1; g--)
		for (i = 1; i <= nslots; i++)
			if (group[i] == g && !noprint[i] && tok[slot[i]] != "" && !(fixed[slot[i]] != "" && ntakes[slot[i]] == 1))
				s2 = s2 "." tok[slot[i]]
	cta = tok["cta_group"]; gsub(/[^0-9]/, "", cta)
	kern = "k" (cta == "" ? 0 : cta)
	mod = target " " ptxv
	# an operation that reads the carry flag follows a .cc instruction that
	# sets it in its basic block (ptxemit refuses it otherwise): one in the
	# kernel's prelude; every statement after it keeps its flag
	if (carry_in) once("%vcc", "%vcc:u32 = add.cc.u32 " value("u32", 0) ", %vu32")
	why = ""
	r = ""
	for (i = 1; i <= nres; i++) r = r (i > 1 ? ", " : "") result(res, i)
	nop = 0; lastopt = 0
	for (i = 1; i <= nopnds; i++) { o[i] = operand(opnds, i); if (opnds[i, "opt"] && !lastopt) lastopt = i }
	if (why != "") { unbuilt[op " variant " vno ": " why] = 1; return }
	# with every optional operand, then (where there is one) without
	r2 = r != "" ? r " = " : ""
	for (dropped = 0; dropped <= (lastopt > 0); dropped++) {
		if (dropped) {
			r = ""
			for (i = 1; i <= nres; i++) r = r (i > 1 ? ", " : "") result(res, i)
			r2 = r != "" ? r " = " : ""
		}
		tail = ""
		nop = dropped ? lastopt - 1 : nopnds
		for (i = 1; i <= nop; i++) tail = tail (i > 1 ? ", " : " ") o[i]
		if (props != "") tail = tail " {" props "}"
		print "S", opi, target, ptxv, kern, ncombos + 1 "\t  " r2 s tail "\t  " r2 s2 tail
		statements++
	}
	built++
}

# every combination of the variant just read
function variant_done(    i, total, idx, more, big) {
	if (!vno) return
	total = 1; big = 0
	for (i = 1; i <= nslots; i++) {
		nchoice[i] = 0
		if (vtoks[i] != "") nchoice[i] = split(vtoks[i], choices, " ")
		nchoice[i] += vopt[i] ? 1 : 0
		if (nchoice[i] == 0) nchoice[i] = 1
		total *= nchoice[i]
		# a slot of more than BIG tokens (the video byte selectors: 4,096
		# each) takes each token once, beside the first choice of every
		# other slot; the others take every combination beside its first
		zipped[i] = nchoice[i] > BIG || (noprint[i] && nchoice[i] > 2)
		if (zipped[i] && nchoice[i] > big) big = nchoice[i]
	}
	listed += total
	if (big) { total = 1; for (i = 1; i <= nslots; i++) if (!zipped[i]) total *= nchoice[i]; total += big - 1 }
	described += total
	for (i = 0; i <= nslots; i++) idx[i] = 0
	do {
		combination(idx)
		more = 0
		for (i = nslots; i >= 1; i--) {
			if (zipped[i]) continue
			if (++idx[i] < nchoice[i]) { more = 1; break }
			idx[i] = 0
		}
	} while (more)
	for (idx[0] = 1; idx[0] < big; idx[0]++) combination(idx)
}

# the combination idx[] names (idx[0]: the zipped slots' choice), emitted
function combination(idx,    i, n, z, ch) {
	for (i = 1; i <= nslots; i++) {
		if (vtoks[i] == "") { tok[slot[i]] = fixed[slot[i]]; continue }
		n = split(vtoks[i], ch, " ")
		z = !zipped[i] ? idx[i] : idx[0] < n + vopt[i] ? idx[0] : n + vopt[i] - 1
		# the empty choice first, then each token
		if (vopt[i]) tok[slot[i]] = z == 0 ? "" : ch[z]
		else tok[slot[i]] = ch[z + 1]
	}
	if (refused()) { described--; ruled++ }
	else emit()
	ncombos++
}

# whether a rule of the tables refuses the combination in tok[] on every
# target ("refused with .sem weak, .scope cta gpu": each slot named holds one
# of its tokens, or is empty where the list says "(empty)")
function refused(    r, k, n, c, sl, want) {
	for (r = 1; r <= nrules; r++) {
		n = split(rules[r], c, /, /)
		for (k = 1; k <= n; k++) {
			sl = c[k]; sub(/^\./, "", sl); sub(/ .*/, "", sl)
			want = c[k]; sub(/^[^ ]* /, "", want)
			if (want == "(empty)" ? tok[sl] != "" : index(" " want " ", " " tok[sl] " ") == 0 || tok[sl] == "") break
		}
		if (k > n) return 1
	}
	return 0
}

BEGIN {
	BIG = 64
	while ((getline l < targets) > 0) { split(l, f, " "); tptx[f[1]] = f[2]; tlist[++ntl] = f[1] }
	nslots = 0; nres = 0; nopnds = 0; vno = 0
}

# the first pass: every token of each slot, then the classes (slots whose
# token sets overlap, transitively), numbered in PTX's order
FNR == NR {
	if ($0 ~ /^  slot \./) {
		name = $2; sub(/^\./, "", name); sub(/:$/, "", name)
		pslot[++npslots] = name
		rest = $0; sub(/^[^:]*: */, "", rest); sub(/ \(.*/, "", rest)
		n = split(rest, f, " "); for (i = 1; i <= n; i++) if (!((name, f[i]) in takes)) { takes[name, f[i]] = 1; ntakes[name]++ }
	} else if ($0 ~ /^    \./ && $0 !~ /\(empty\)/) {
		name = $1; sub(/^\./, "", name); sub(/:$/, "", name)
		rest = $0; sub(/^[^:]*: */, "", rest)
		n = split(rest, f, " "); for (i = 1; i <= n; i++) if (!((name, f[i]) in takes)) { takes[name, f[i]] = 1; ntakes[name]++ }
	}
	next
}
FNR == 1 {
	for (i = 1; i <= npslots; i++) cls[i] = i
	do {
		changed = 0
		for (k in takes) {
			split(k, kp, SUBSEP)
			for (i = 1; i <= npslots; i++) for (j = i + 1; j <= npslots; j++)
				if (pslot[i] == kp[1] && ((pslot[j], kp[2]) in takes) && cls[j] != cls[i]) {
					lo = cls[i] < cls[j] ? cls[i] : cls[j]; hi = cls[i] + cls[j] - lo
					for (m = 1; m <= npslots; m++) if (cls[m] == hi) cls[m] = lo
					changed = 1
				}
		}
	} while (changed)
	ngroups = 0
	for (i = 1; i <= npslots; i++) { if (!(cls[i] in gno)) gno[cls[i]] = ++ngroups; group[i] = gno[cls[i]] }
}

/^  slot \./ {
	name = $2; sub(/^\./, "", name); sub(/:$/, "", name)
	slot[++nslots] = name
	fixed[name] = ""; noprint[nslots] = 0
	if ($0 ~ /\(always\)/) fixed[name] = $3
	if ($0 ~ /\(a property; not printed\)/) noprint[nslots] = 1
	typeslot[name] = $0 ~ /\(inferred when left out\)/
	next
}
/^  reads the carry flag/ { carry_in = 1; next }
/^  refused with / { rules[++nrules] = substr($0, 17); next }
/^  result / { opres[++nopres] = $0; next }
/^  operand / { opopnd[++nopopnd] = $0; next }
/^  variant [0-9]+:/ {
	variant_done()
	vno = $2 + 0; nvariants++
	target = $3; sub(/,$/, "", target)
	ptxv = $0; sub(/.*PTX ISA /, "", ptxv); sub(/,.*/, "", ptxv)
	# the target's own lowest PTX ISA version, where it is higher
	if ((target in tptx) && (tptx[target] * 10) > (ptxv * 10)) ptxv = tptx[target]
	for (i = 1; i <= nslots; i++) { vtoks[i] = fixed[slot[i]]; vopt[i] = 0 }
	nres = 0; nopnds = 0
	for (i = 1; i <= nopres; i++) opnd(opres[i], res, ++nres)
	for (i = 1; i <= nopopnd; i++) opnd(opopnd[i], opnds, ++nopnds)
	vres = 0; vops = 0
	next
}
/^    \./ {
	name = $1; sub(/^\./, "", name); sub(/:$/, "", name)
	rest = $0; sub(/^[^:]*: */, "", rest)
	for (i = 1; i <= nslots; i++) if (slot[i] == name) break
	if (rest == "(empty)") { vtoks[i] = ""; vopt[i] = 0 }
	else { vtoks[i] = rest; vopt[i] = $0 ~ /\(optional\)/ }
	next
}
/^    result / { if (!vres) { nres = 0; vres = 1 } opnd($0, res, ++nres); next }
/^    operand / { if (!vops) { nopnds = 0; vops = 1 } opnd($0, opnds, ++nopnds); next }

END {
	variant_done()
	for (u in unbuilt) print "unbuilt " u
	print "count", op, nvariants, described, built, statements, listed, ruled + 0
}
