"""Settlement: from a reading's items to who pays whom — formulas, payments, kong points, what-if steps."""
