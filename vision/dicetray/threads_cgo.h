#ifndef SZTAB_THREADS_CGO_H
#define SZTAB_THREADS_CGO_H
#ifdef __cplusplus
extern "C" {
#endif
void Sztab_SetNumThreads(int n);
int Sztab_GetNumThreads(void);
#ifdef __cplusplus
}
#endif
#endif
