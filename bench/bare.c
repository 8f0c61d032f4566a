/* bare: a process that does nothing. Starting it is what any program pays
 * before its first instruction; bench/run.sh subtracts its time from every
 * tool's. */
int main(void) { return 0; }
