from uploads import limits


def test_a_file_at_the_limit_is_accepted_and_one_byte_more_is_not():
    at_limit = limits.UPLOAD_MAX_MB * 1024 * 1024
    assert limits.accepts(at_limit, "application/pdf")
    assert not limits.accepts(at_limit + 1, "application/pdf")


def test_other_types_are_refused():
    assert not limits.accepts(10, "application/x-msdownload")
