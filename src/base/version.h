/* version.h: folio's version, one place. */
#ifndef FOLIO_VERSION_H
#define FOLIO_VERSION_H
#define FOLIO_VERSION "0.1.0"
#endif
