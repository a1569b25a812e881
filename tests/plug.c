/* plug.c: a module for the dlopen/dlclose tests: its buffer lives in the
 * module's own writable data and goes away with dlclose. */
__attribute__((visibility("default"))) char plug_buffer[4096] = {1};
