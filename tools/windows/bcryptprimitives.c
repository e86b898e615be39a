/*
 * Test-only stand-in for Windows' bcryptprimitives.dll, for running
 * gyoku.exe under wine 8 (Debian 12), which lacks that DLL.
 *
 * Rust's standard library (1.78 and later) imports ProcessPrng from
 * bcryptprimitives.dll to seed HashMap keys; every Windows 10 and 11
 * has it, wine only from version 9. This shim forwards to
 * advapi32!SystemFunction036 (RtlGenRandom), which wine has.
 *
 * tools/windows/build.sh compiles it next to the exe it tests, in a
 * scratch folder. Never ship it beside a release gyoku.exe: on Windows
 * the system's own DLL must be the one loaded.
 */
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length)
{
    while (length > 0) {
        ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
        if (!SystemFunction036(data, chunk))
            return FALSE;
        data += chunk;
        length -= chunk;
    }
    return TRUE;
}
