/* empty.c: a preload library that does nothing: the floor that any
 * LD_PRELOAD library pays at process start, measured beside rwcheck. */
int rwbench_empty_preload;
