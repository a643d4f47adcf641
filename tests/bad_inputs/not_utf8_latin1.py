# TVMScript in Latin-1: café
