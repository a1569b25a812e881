/* init.c: the library's constructor: bind the real functions, read the
 * knobs, register the fork handler.  Calls that arrive earlier (other
 * libraries' constructors) do the same lazily (call.c). */
#include "config.h"

#include <pthread.h>

#include "call.h"
#include "mapview.h"
#include "report.h"

static void atfork_child(void)
{
	rwc_map_atfork_child();
	rwc_report_atfork_child();
}

__attribute__((constructor)) static void rwc_init(void)
{
	rwc_init_once();
	pthread_atfork(NULL, NULL, atfork_child);
}
