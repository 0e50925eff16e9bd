#include "textflag.h"

// The bytes masks64 compares with, 16 of each: '"', '\\', 0x20, '{', '}'.
DATA masksConsts<>+0(SB)/8, $0x2222222222222222
DATA masksConsts<>+8(SB)/8, $0x2222222222222222
DATA masksConsts<>+16(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA masksConsts<>+24(SB)/8, $0x5c5c5c5c5c5c5c5c
DATA masksConsts<>+32(SB)/8, $0x2020202020202020
DATA masksConsts<>+40(SB)/8, $0x2020202020202020
DATA masksConsts<>+48(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA masksConsts<>+56(SB)/8, $0x7b7b7b7b7b7b7b7b
DATA masksConsts<>+64(SB)/8, $0x7d7d7d7d7d7d7d7d
DATA masksConsts<>+72(SB)/8, $0x7d7d7d7d7d7d7d7d
GLOBL masksConsts<>(SB), RODATA|NOPTR, $80

// func masks64(p *byte) (quote, bslash, open, close uint64)
//
// Bit k of each mask is set when byte p[k] is a quote, a backslash, an
// opening bracket ({ or [) or a closing one (} or ]): the classes
// ContainerEnd tracks, found 16 bytes at a time (SSE2, in every amd64).
TEXT ·masks64(SB), NOSPLIT, $0-40
	MOVQ p+0(FP), SI
	MOVOU masksConsts<>+0(SB), X8
	MOVOU masksConsts<>+16(SB), X9
	MOVOU masksConsts<>+32(SB), X10
	MOVOU masksConsts<>+48(SB), X11
	MOVOU masksConsts<>+64(SB), X12
	XORQ R8, R8
	XORQ R9, R9
	XORQ R10, R10
	XORQ R11, R11
	MOVOU 0(SI), X0
	MOVO X0, X1
	PCMPEQB X8, X1
	MOVO X0, X2
	PCMPEQB X9, X2
	POR X10, X0
	MOVO X0, X3
	PCMPEQB X11, X0
	PCMPEQB X12, X3
	PMOVMSKB X1, AX
	ORQ AX, R8
	PMOVMSKB X2, AX
	ORQ AX, R9
	PMOVMSKB X0, AX
	ORQ AX, R10
	PMOVMSKB X3, AX
	ORQ AX, R11
	MOVOU 16(SI), X0
	MOVO X0, X1
	PCMPEQB X8, X1
	MOVO X0, X2
	PCMPEQB X9, X2
	POR X10, X0
	MOVO X0, X3
	PCMPEQB X11, X0
	PCMPEQB X12, X3
	PMOVMSKB X1, AX
	SHLQ $16, AX
	ORQ AX, R8
	PMOVMSKB X2, AX
	SHLQ $16, AX
	ORQ AX, R9
	PMOVMSKB X0, AX
	SHLQ $16, AX
	ORQ AX, R10
	PMOVMSKB X3, AX
	SHLQ $16, AX
	ORQ AX, R11
	MOVOU 32(SI), X0
	MOVO X0, X1
	PCMPEQB X8, X1
	MOVO X0, X2
	PCMPEQB X9, X2
	POR X10, X0
	MOVO X0, X3
	PCMPEQB X11, X0
	PCMPEQB X12, X3
	PMOVMSKB X1, AX
	SHLQ $32, AX
	ORQ AX, R8
	PMOVMSKB X2, AX
	SHLQ $32, AX
	ORQ AX, R9
	PMOVMSKB X0, AX
	SHLQ $32, AX
	ORQ AX, R10
	PMOVMSKB X3, AX
	SHLQ $32, AX
	ORQ AX, R11
	MOVOU 48(SI), X0
	MOVO X0, X1
	PCMPEQB X8, X1
	MOVO X0, X2
	PCMPEQB X9, X2
	POR X10, X0
	MOVO X0, X3
	PCMPEQB X11, X0
	PCMPEQB X12, X3
	PMOVMSKB X1, AX
	SHLQ $48, AX
	ORQ AX, R8
	PMOVMSKB X2, AX
	SHLQ $48, AX
	ORQ AX, R9
	PMOVMSKB X0, AX
	SHLQ $48, AX
	ORQ AX, R10
	PMOVMSKB X3, AX
	SHLQ $48, AX
	ORQ AX, R11
	MOVQ R8, quote+8(FP)
	MOVQ R9, bslash+16(FP)
	MOVQ R10, open+24(FP)
	MOVQ R11, close+32(FP)
	RET
