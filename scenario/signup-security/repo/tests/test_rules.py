from identity.rules import MIN_PASSWORD_LENGTH, password_ok


def test_minimum_length_is_the_boundary():
    assert password_ok("x" * MIN_PASSWORD_LENGTH)
    assert not password_ok("x" * (MIN_PASSWORD_LENGTH - 1))
