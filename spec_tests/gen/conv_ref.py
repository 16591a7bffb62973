"""A direct reference convolution (operation_semantics.md, Conv), written
from the spec's pseudo-code in exact Python arithmetic (object arrays), for
gen_convolution.py. Dimension labels are XLA's `dim_labels` text, e.g.
`b01f_01io->b01f`."""
import numpy as np


def parse_labels(text):
    lhs, rest = text.split("_", 1)
    rhs, out = rest.split("->")
    return lhs, rhs, out


def _perm(labels, first):
    """Permutation taking an array with dims named by `labels` to
    [first[0], first[1], spatial 0, spatial 1, ...]."""
    n = len(labels) - 2
    order = [labels.index(first[0]), labels.index(first[1])]
    order += [labels.index(str(i)) for i in range(n)]
    return order


def conv(lhs, rhs, labels, strides=None, padding=None, lhs_dil=None,
         rhs_dil=None, reversal=None, fgc=1, bgc=1):
    """Returns the result in the layout of the output labels."""
    ll, rl, ol = parse_labels(labels)
    lhs = np.transpose(np.asarray(lhs, dtype=object), _perm(ll, "bf"))
    rhs = np.transpose(np.asarray(rhs, dtype=object), _perm(rl, "oi"))
    n = lhs.ndim - 2
    strides = strides or [1] * n
    padding = padding or [(0, 0)] * n
    lhs_dil = lhs_dil or [1] * n
    rhs_dil = rhs_dil or [1] * n
    reversal = reversal or [0] * n
    N, C = lhs.shape[:2]
    O, I = rhs.shape[:2]
    insp, ksp = lhs.shape[2:], rhs.shape[2:]
    assert C == I * fgc and O % fgc == 0 and N % bgc == 0 and O % bgc == 0
    out_sp = []
    for d in range(n):
        base = (insp[d] - 1) * lhs_dil[d] + 1 if insp[d] else 0
        base += padding[d][0] + padding[d][1]
        win = (ksp[d] - 1) * rhs_dil[d] + 1 if ksp[d] else 0
        out_sp.append(max(0, (base - win) // strides[d] + 1)
                      if base >= win else 0)
    NB = N // bgc
    out = np.empty([NB, O] + out_sp, dtype=object)
    o_per_fg = O // fgc
    o_per_bg = O // bgc
    for idx in np.ndindex(*out.shape):
        b, oz = idx[0], idx[1]
        fg = oz // o_per_fg
        bg = oz // o_per_bg
        ib = bg * NB + b
        total = 0
        for iz in range(I):
            cz = fg * I + iz
            for k in np.ndindex(*ksp):
                pos = []
                ok = True
                for d in range(n):
                    p = idx[2 + d] * strides[d] + k[d] * rhs_dil[d] - \
                        padding[d][0]
                    if p < 0 or p % lhs_dil[d]:
                        ok = False
                        break
                    p //= lhs_dil[d]
                    if p >= insp[d]:
                        ok = False
                        break
                    pos.append(p)
                if not ok:
                    continue
                kidx = tuple(ksp[d] - 1 - k[d] if reversal[d] else k[d]
                             for d in range(n))
                total = total + lhs[(ib, cz) + tuple(pos)] * \
                    rhs[(oz, iz) + kidx]
        out[idx] = total
    # out is [b, f, spatial...]; move to the output labels' order.
    src = _perm(ol, "bf")  # position in ol of b, f, 0, 1, ...
    inv = [0] * len(src)
    for canon, pos in enumerate(src):
        inv[pos] = canon
    return np.transpose(out, inv)


def window_text(ksp, strides=None, padding=None, lhs_dil=None, rhs_dil=None,
                reversal=None):
    n = len(ksp)
    parts = ["size=" + "x".join(map(str, ksp))]
    if strides and any(s != 1 for s in strides):
        parts.append("stride=" + "x".join(map(str, strides)))
    if padding and any(p != (0, 0) for p in padding):
        parts.append("pad=" + "x".join("%d_%d" % p for p in padding))
    if lhs_dil and any(s != 1 for s in lhs_dil):
        parts.append("lhs_dilate=" + "x".join(map(str, lhs_dil)))
    if rhs_dil and any(s != 1 for s in rhs_dil):
        parts.append("rhs_dilate=" + "x".join(map(str, rhs_dil)))
    if reversal and any(reversal):
        parts.append("rhs_reversal=" + "x".join(map(str, reversal)))
    assert n >= 0
    return "{" + " ".join(parts) + "}"
