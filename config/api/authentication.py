"""Bearer-key authentication for agents."""

from datetime import timedelta

from django.utils import timezone
from rest_framework import authentication, exceptions

from .keys import key_digest
from .models import ApiKey

# last_used_at is a hint for humans, not an audit log: refreshing it at most once a minute keeps
# the hot path free of a write per request.
LAST_USED_RESOLUTION = timedelta(seconds=60)
# Longer than any key we issue; a longer header is garbage and is not worth hashing.
MAX_KEY_LENGTH = 256


class KeyPrincipal:
    """The caller behind a valid API key, standing in for request.user."""

    is_authenticated = True
    is_anonymous = False
    is_staff = False
    is_superuser = False

    def __init__(self, key: ApiKey):
        self.key = key
        self.username = f"key:{key.name}"

    def __str__(self) -> str:
        return self.username


class ApiKeyAuthentication(authentication.BaseAuthentication):
    """``Authorization: Bearer <key>``; a missing header is anonymous, a bad key is a 401."""

    keyword = "Bearer"

    def authenticate(self, request):
        header = authentication.get_authorization_header(request).split()
        if not header or header[0].lower() != self.keyword.lower().encode():
            return None
        if len(header) != 2:
            raise exceptions.AuthenticationFailed("Authorization header must be 'Bearer <key>'.")
        try:
            raw = header[1].decode("ascii")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed("Invalid API key.") from None
        if len(raw) > MAX_KEY_LENGTH:
            raise exceptions.AuthenticationFailed("Invalid API key.")
        key = ApiKey.objects.filter(digest=key_digest(raw)).first()
        if key is None or not key.is_active:
            raise exceptions.AuthenticationFailed("Invalid or revoked API key.")
        self._touch(key)
        return KeyPrincipal(key), key

    def authenticate_header(self, request):
        return f'{self.keyword} realm="api"'

    @staticmethod
    def _touch(key: ApiKey) -> None:
        now = timezone.now()
        if key.last_used_at is None or now - key.last_used_at > LAST_USED_RESOLUTION:
            ApiKey.objects.filter(pk=key.pk).update(last_used_at=now)
