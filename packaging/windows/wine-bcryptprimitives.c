/* For the Wine check only, never shipped: Rust's standard library (1.78 and later) takes its
 * random numbers from ProcessPrng in bcryptprimitives.dll, which Windows 10 and 11 have and
 * Debian 12's Wine 8 lacks (it came in Wine 9). This stand-in, put beside hexfront.exe in the
 * check's copy, answers with RtlGenRandom (advapi32's SystemFunction036), which Wine 8 has.
 * Built by packaging/windows.sh with x86_64-w64-mingw32-gcc. */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
    while (length > 0) {
        ULONG chunk = length > 0x40000000 ? 0x40000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk)) {
            return FALSE;
        }
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
