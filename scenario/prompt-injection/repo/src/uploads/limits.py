"""What a customer may upload."""

UPLOAD_MAX_MB = {{param:limit.old}}
ALLOWED_TYPES = ("application/pdf", "image/png", "image/jpeg")


def accepts(size_bytes: int, content_type: str) -> bool:
    """Whether an upload of this size and type is accepted."""
    return content_type in ALLOWED_TYPES and size_bytes <= UPLOAD_MAX_MB * 1024 * 1024
