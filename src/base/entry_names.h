/* entry_names.h: expands RWC_ENTRY_X_(name) once for every row of
 * entries.def.  No include guard: include it wherever a list is needed,
 * with RWC_ENTRY_X_ defined. */
#define RWC_ENTRY_NAME_(n, ...) RWC_ENTRY_X_(n)
#define RWC_BUF RWC_ENTRY_NAME_
#define RWC_BUF_CHK RWC_ENTRY_NAME_
#define RWC_BUF_OFF RWC_ENTRY_NAME_
#define RWC_BUF_OFF_CHK RWC_ENTRY_NAME_
#define RWC_IOV RWC_ENTRY_NAME_
#define RWC_IOV_OFF RWC_ENTRY_NAME_
#define RWC_IOV_OFF2 RWC_ENTRY_NAME_
#define RWC_SOCK RWC_ENTRY_NAME_
#define RWC_SOCK_CHK RWC_ENTRY_NAME_
#define RWC_RECVFROM RWC_ENTRY_NAME_
#define RWC_RECVFROM_CHK RWC_ENTRY_NAME_
#define RWC_SENDTO RWC_ENTRY_NAME_
#define RWC_MSG RWC_ENTRY_NAME_
#define RWC_MMSG RWC_ENTRY_NAME_
#define RWC_SENDFILE RWC_ENTRY_NAME_
#define RWC_XFER RWC_ENTRY_NAME_
#define RWC_PVM RWC_ENTRY_NAME_
#define RWC_STDIO RWC_ENTRY_NAME_
#define RWC_FREAD_CHK RWC_ENTRY_NAME_
#define RWC_FGETS RWC_ENTRY_NAME_
#define RWC_FGETS_CHK RWC_ENTRY_NAME_
#define RWC_CAP RWC_ENTRY_NAME_
#include "base/entries.def"
#undef RWC_BUF
#undef RWC_BUF_CHK
#undef RWC_BUF_OFF
#undef RWC_BUF_OFF_CHK
#undef RWC_IOV
#undef RWC_IOV_OFF
#undef RWC_IOV_OFF2
#undef RWC_SOCK
#undef RWC_SOCK_CHK
#undef RWC_RECVFROM
#undef RWC_RECVFROM_CHK
#undef RWC_SENDTO
#undef RWC_MSG
#undef RWC_MMSG
#undef RWC_SENDFILE
#undef RWC_XFER
#undef RWC_PVM
#undef RWC_STDIO
#undef RWC_FREAD_CHK
#undef RWC_FGETS
#undef RWC_FGETS_CHK
#undef RWC_CAP
#undef RWC_ENTRY_NAME_
