/* mapsfile.h: opening /proc/self/maps for the library's own reads of it.
 * Async-signal-safe (open); allocates nothing. */
#ifndef RWC_MAPSFILE_H
#define RWC_MAPSFILE_H

/* Opens /proc/self/maps (close-on-exec); -1 and, once per process, one
 * warning when it cannot. */
int rwc_map_open(void);

#endif
