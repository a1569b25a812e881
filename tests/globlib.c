/* globlib.c: a shared library with globals, for tests/victim_global.c
 * (the case "lib": a read into a library's own object). */
char globlib_buf[40];
char globlib_next[40];

char *globlib_buffer(void);
char *globlib_buffer(void)
{
	return globlib_next[0] ? globlib_next : globlib_buf;
}
