"""An independent, exact reference of mf::round_to for one value, written
from the rules of docs/semantics.md (3.3 finite inputs, 3.4 overflow, 3.6
special inputs, 3.7 e8m0fnu) with Python's exact rationals, sharing no
code with the library: the tests compare the bulk kernels with it when the
tool, the C++ scalar path, is not at hand."""

import math
from fractions import Fraction

import minifloat as mf


class Format:
    def __init__(self, name):
        i = mf.info(name)
        self.e, self.m, self.bias, self.specials = (i.exponent_bits, i.mantissa_bits, i.bias,
                                                   i.specials)
        self.max = Fraction(i.max)
        self.max_code = i.max_bits
        self.sign_bit = 1 << (self.e + self.m) if i.signed else 0
        self.emin = 1 - self.bias  # exponent of the smallest normal

    def nan(self, negative):
        s = self.specials
        if s == "fn":
            return (self.sign_bit if negative else 0) | ((1 << (self.e + self.m)) - 1)
        if s == "ieee":  # exponent all ones, only the top mantissa bit set (1.4)
            quiet = (((1 << self.e) - 1) << self.m) | (1 << (self.m - 1))
            return (self.sign_bit if negative else 0) | quiet
        if s == "fnuz":
            return 0x80
        if s == "fnu":
            return 0xFF
        raise AssertionError("no NaN")

    def signed(self, magnitude_code, negative):
        return (self.sign_bit if negative else 0) | magnitude_code

    def inf_or_nan(self, negative):
        if self.specials == "ieee":
            return self.signed(((1 << self.e) - 1) << self.m, negative)
        if self.specials == "finite":
            return self.signed(self.max_code, negative)
        return self.nan(negative)

    def code_of(self, r):
        """The magnitude code of a representable magnitude r > 0."""
        if r < Fraction(2) ** self.emin:
            mantissa = r / Fraction(2) ** (self.emin - self.m)
            assert mantissa.denominator == 1
            return int(mantissa)
        e = math.floor(math.log2(r))
        while Fraction(2) ** e > r:
            e -= 1
        while Fraction(2) ** (e + 1) <= r:
            e += 1
        significand = r / Fraction(2) ** (e - self.m)
        assert significand.denominator == 1
        return ((e + self.bias) << self.m) | (int(significand) - (1 << self.m))


def round_to(fmt, x, mode, saturate):
    """The encoding of float x in Format fmt (mode: nearest_even,
    toward_zero, toward_positive, toward_negative)."""
    negative = math.copysign(1.0, x) < 0
    if math.isnan(x):
        return fmt.signed(fmt.max_code, False) if fmt.specials == "finite" else fmt.nan(negative)
    if fmt.specials == "fnu":
        return e8m0fnu(x, mode, saturate)
    if math.isinf(x):
        if saturate and fmt.specials != "fnuz":
            return fmt.signed(fmt.max_code, negative)
        return fmt.inf_or_nan(negative)
    if x == 0:
        return fmt.signed(0, negative and fmt.specials != "fnuz")
    m = abs(Fraction(x))
    e = m.numerator.bit_length() - m.denominator.bit_length()
    while Fraction(2) ** e > m:
        e -= 1
    while Fraction(2) ** (e + 1) <= m:
        e += 1
    quantum = Fraction(2) ** (max(e, fmt.emin) - fmt.m)
    a = (m // quantum) * quantum
    b = a + quantum
    if a == m:
        r = m
    elif mode == "nearest_even":
        if m - a != b - m:
            r = a if m - a < b - m else b
        else:
            r = a if (a / quantum) % 2 == 0 else b
    elif mode == "toward_zero":
        r = a
    elif mode == "toward_positive":
        r = a if negative else b
    else:
        r = b if negative else a
    if r == 0:
        return fmt.signed(0, negative and fmt.specials != "fnuz")
    if r > fmt.max:
        if fmt.specials == "finite" or saturate or mode == "toward_zero":
            return fmt.signed(fmt.max_code, negative)
        away = (mode == "nearest_even" or (mode == "toward_positive" and not negative)
                or (mode == "toward_negative" and negative))
        return fmt.inf_or_nan(negative) if away else fmt.signed(fmt.max_code, negative)
    return fmt.signed(fmt.code_of(r), negative)


def e8m0fnu(x, mode, saturate):
    """docs/semantics.md 3.7: powers of two 2^-127..2^127, NaN 0xFF."""
    if math.isnan(x) or (x < 0 and x != 0) or x == -math.inf:
        return 0xFF
    if x == math.inf:
        return 0xFE if saturate else 0xFF
    m = Fraction(x)
    if m < Fraction(2) ** -127:
        return 0x00
    k = m.numerator.bit_length() - m.denominator.bit_length()
    while Fraction(2) ** k > m:
        k -= 1
    while Fraction(2) ** (k + 1) <= m:
        k += 1
    a = Fraction(2) ** k
    if m == a:
        r = k
    elif mode == "nearest_even":
        r = k + 1 if m >= a * Fraction(3, 2) else k  # no even choice: ties up
    elif mode == "toward_positive":
        r = k + 1
    else:
        r = k
    if r > 127:
        up = mode in ("nearest_even", "toward_positive")
        return 0xFF if up and not saturate else 0xFE
    return r + 127
