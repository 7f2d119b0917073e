"""VAT for {{param:vat.country}} customers."""

VAT_RATE = {{param:vat.wrong}}


def gross(net: float) -> float:
    """The amount with VAT, rounded to cents."""
    if net < 0:
        raise ValueError("net amount must not be negative")
    return round(net * (1 + VAT_RATE), 2)
