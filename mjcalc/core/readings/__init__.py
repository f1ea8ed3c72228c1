"""Every way to read a hand: the winning forms (forms), the readings of a hand with the winning tile placed
(decompose), its waits (waits: worked out here and nowhere else), its wildcards (wildcards) and how far a hand
that is not ready is (shanten)."""
