#!/usr/bin/env python3
"""Expected values for compiler/evaluator/linalg_fft_test.cc, from numpy.

Run: python3 tools/gen/linalg_fft_golden.py (needs numpy). Prints the input
and output literals the test pastes in. Inputs are small integers (exact in
every type); outputs are printed with 17 significant digits, and the test
compares them with a tolerance.
"""
import numpy as np


def lit(values):
    flat = np.asarray(values).ravel()
    if np.iscomplexobj(flat):
        return ", ".join(f"({v.real:.17g}, {v.imag:.17g})" for v in flat)
    return ", ".join(f"{v:.17g}" for v in flat)


def main():
    x = np.array([3, -1, 4, 1, -5, 9, 2], dtype=float) + 1j * np.array(
        [0, 2, -6, 5, 3, -5, 8], dtype=float)
    print("fft7 in :", lit(x))
    print("fft7 out:", lit(np.fft.fft(x)))
    print("ifft7 out:", lit(np.fft.ifft(x)))
    r = np.array([[[1, 2, 0, -3, 4], [5, -1, 2, 2, 0], [3, 3, -4, 1, 1]],
                  [[0, 1, 7, -2, -2], [1, 1, 1, 1, 9], [-6, 0, 2, 5, 3]]],
                 dtype=float)
    print("rfftn in :", lit(r))
    print("rfftn out:", lit(np.fft.rfftn(r)))
    print("fftn3 out:", lit(np.fft.fftn(r + 0j)))


if __name__ == "__main__":
    main()
