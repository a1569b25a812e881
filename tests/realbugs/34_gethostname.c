/* gethostname into a 16-byte local with 256; getdomainname into a global with 256. */
#define _GNU_SOURCE
#include <stdio.h>
#include <string.h>
#include <unistd.h>
char g_domain[24];
int g_domain_ok;
#ifdef CLEAN
#define HLEN sizeof host
#define DLEN sizeof g_domain
#else
#define HLEN 256
#define DLEN 256
#endif
int main(void) {
    char host[16];
    int r = gethostname(host, HLEN); /*BAD call=gethostname problem=stack-overflow kind=stack-variable name=host size=16 arg=name*/
    g_domain_ok = getdomainname(g_domain, DLEN) == 0; /*BAD call=getdomainname problem=global-overflow kind=global name=g_domain size=24 arg=name*/
    printf("%d hostlen %zu domain ok %d\n", r, strlen(host), g_domain_ok);
    return 0;
}
