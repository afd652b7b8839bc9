// Not API: see ../README.md. libInkHit's load-time constructor (host_signals.c) has no callable interface.
#ifndef INKHIT_HOST_H
#define INKHIT_HOST_H
#endif
