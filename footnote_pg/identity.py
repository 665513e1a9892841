"""Verified identity from a bearer token: the end user a web or MCP server asks for (docs/scopes.md).

A service that authenticates its users itself sends each request with ``Authorization: Bearer <JWT>``. The
token is checked against a configured issuer, audience and key set (a JWKS file or URL, or a PEM public key):
signature, ``exp``, ``iss``, ``aud``, and a subject (``sub``) and a scope claim (``footnote_scope`` unless named
otherwise). The verified subject and scope go to SQL through ``footnote.assert_identity`` at the start of every
transaction the request runs (:class:`footnote_pg.client.Footnote` reads :data:`current`), which only a member of
``footnote_gateway`` may call; the scope then narrows what the login sees and the subject is the recorded actor.

A refused request is one line and an HTTP 401 (no, expired, unsigned, tampered token, wrong issuer or audience)
or 403 (a valid token without a scope, or with a scope the database does not define), with the
``WWW-Authenticate`` header RFC 6750 and the MCP authorization specification describe; nothing of it reaches the
database's call log or ledger. The checks follow the resource-server role of the MCP specification: the
verifier is the SDK's :class:`mcp.server.auth.provider.TokenVerifier`, and the request carries the SDK's
``AuthenticatedUser`` so MCP sessions are bound to the user who opened them.
"""

from __future__ import annotations

import contextvars
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jwt
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthCredentials

from footnote_pg import errors

log = logging.getLogger("footnote_pg.identity")

SCOPE_CLAIM = "footnote_scope"
ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"]
LEEWAY = 30  # seconds of clock skew tolerated on exp, nbf and iat
ENV = {"issuer": "FOOTNOTE_JWT_ISSUER", "audience": "FOOTNOTE_JWT_AUDIENCE", "jwks": "FOOTNOTE_JWT_JWKS",
       "public_key": "FOOTNOTE_JWT_PUBLIC_KEY", "scope_claim": "FOOTNOTE_JWT_SCOPE_CLAIM"}


@dataclass(frozen=True)
class Identity:
    """A verified end user: the token's subject and the scope its claim names."""

    subject: str
    scope: str


current: contextvars.ContextVar[Identity | None] = contextvars.ContextVar("footnote_identity", default=None)


class Refused(Exception):
    """A request whose token does not pass: the HTTP status, the OAuth error code and one line saying why."""

    def __init__(self, status: int, error: str | None, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.error = error


@dataclass(frozen=True)
class TokenSettings:
    """Where tokens come from and what they must say: issuer, audience, keys (JWKS file or URL, or a PEM public
    key file) and the name of the scope claim."""

    issuer: str
    audience: str
    jwks: str | None = None
    public_key: str | None = None
    scope_claim: str = SCOPE_CLAIM
    key: Any = None  # a public key object held in memory (the demo's, generated at start) instead of a file

    @classmethod
    def from_options(cls, issuer: str | None = None, audience: str | None = None, jwks: str | None = None,
                     public_key: str | None = None, scope_claim: str | None = None) -> TokenSettings | None:
        """The settings from options, else the FOOTNOTE_JWT_* environment; None when none is given (no token
        validation); InvalidArgument when they are incomplete."""
        issuer = issuer or os.environ.get(ENV["issuer"]) or None
        audience = audience or os.environ.get(ENV["audience"]) or None
        jwks = jwks or os.environ.get(ENV["jwks"]) or None
        public_key = public_key or os.environ.get(ENV["public_key"]) or None
        scope_claim = scope_claim or os.environ.get(ENV["scope_claim"]) or SCOPE_CLAIM
        if not any((issuer, audience, jwks, public_key)):
            return None
        missing = [name for name, value in (("issuer", issuer), ("audience", audience)) if not value]
        if not (jwks or public_key):
            missing.append("jwks or public key")
        if missing:
            raise errors.InvalidArgument(
                f"invalid argument token settings: {', '.join(missing)} missing; token validation needs an issuer "
                f"({ENV['issuer']}), an audience ({ENV['audience']}) and keys ({ENV['jwks']}: a JWKS file or "
                f"URL, or {ENV['public_key']}: a PEM public key file)", {"argument": "token"})
        if jwks and public_key:
            raise errors.InvalidArgument("invalid argument token settings: give a JWKS or a PEM public key, not both",
                                         {"argument": "token"})
        assert issuer is not None and audience is not None
        return cls(issuer, audience, jwks, public_key, scope_claim)


class Keys:
    """The keys tokens are signed with: a JWKS (file or https URL, fetched and cached) or one PEM public key."""

    def __init__(self, settings: TokenSettings) -> None:
        self._client: jwt.PyJWKClient | None = None
        self._set: jwt.PyJWKSet | None = None
        self._pem: Any = None
        try:
            if settings.key is not None:
                self._pem = settings.key
            elif settings.public_key:
                from cryptography.hazmat.primitives.serialization import load_pem_public_key

                self._pem = load_pem_public_key(Path(settings.public_key).read_bytes())
            elif settings.jwks and settings.jwks.startswith(("https://", "http://")):
                self._client = jwt.PyJWKClient(settings.jwks, cache_keys=True, lifespan=300, timeout=10)
            elif settings.jwks:
                self._set = jwt.PyJWKSet.from_dict(json.loads(Path(settings.jwks).read_text(encoding="utf-8")))
        except (OSError, ValueError, jwt.PyJWTError) as exc:
            source = settings.public_key or settings.jwks
            raise errors.InvalidArgument(f"invalid argument token keys: cannot read {source}: {exc}",
                                         {"argument": "token"}) from None

    def key_for(self, token: str) -> Any:
        if self._pem is not None:
            return self._pem
        try:
            if self._client is not None:
                return self._client.get_signing_key_from_jwt(token).key
            assert self._set is not None
            kid = jwt.get_unverified_header(token).get("kid")
            keys = [k for k in self._set.keys if kid is None or k.key_id == kid]
        except jwt.PyJWKClientConnectionError as exc:
            raise Refused(401, "invalid_token", f"the key set could not be fetched: {exc}") from None
        except jwt.PyJWTError:
            raise Refused(401, "invalid_token", "the bearer token names no key of the configured key set") from None
        if not keys:
            raise Refused(401, "invalid_token", "the bearer token names no key of the configured key set")
        return keys[0].key


class Verifier:
    """Checks bearer tokens against :class:`TokenSettings` (the SDK's TokenVerifier: ``verify_token``)."""

    def __init__(self, settings: TokenSettings) -> None:
        self.settings = settings
        self.keys = Keys(settings)

    def identity(self, token: str) -> tuple[Identity, dict[str, Any]]:
        """The verified subject and scope of ``token`` with its claims; :class:`Refused` saying why not."""
        s = self.settings
        try:
            claims: dict[str, Any] = jwt.decode(
                token, self.keys.key_for(token), algorithms=ALGORITHMS, audience=s.audience, issuer=s.issuer,
                leeway=LEEWAY, options={"require": ["exp", "iss", "aud", "sub"]})
        except jwt.ExpiredSignatureError:
            raise Refused(401, "invalid_token", "the bearer token has expired") from None
        except jwt.InvalidIssuerError:
            raise Refused(401, "invalid_token", f"the bearer token was not issued by {s.issuer}") from None
        except jwt.InvalidAudienceError:
            raise Refused(401, "invalid_token", f"the bearer token is not meant for audience {s.audience}") from None
        except jwt.InvalidSignatureError:
            raise Refused(401, "invalid_token", "the bearer token's signature does not verify with the configured "
                                                "keys") from None
        except jwt.MissingRequiredClaimError as exc:
            raise Refused(401, "invalid_token", f"the bearer token has no {exc.claim} claim") from None
        except jwt.ImmatureSignatureError:
            raise Refused(401, "invalid_token", "the bearer token is not valid yet") from None
        except jwt.InvalidAlgorithmError:
            raise Refused(401, "invalid_token", "the bearer token is signed with an algorithm not accepted here "
                                                f"({', '.join(ALGORITHMS)})") from None
        except jwt.PyJWTError:
            raise Refused(401, "invalid_token", "the bearer token is not a well-formed signed JWT") from None
        subject = claims.get("sub")
        if not isinstance(subject, str) or not subject.strip() or len(subject) > 100 or not subject.isprintable():
            raise Refused(401, "invalid_token", "the bearer token's subject must be 1 to 100 printable characters")
        scope = claims.get(s.scope_claim)
        if scope is None:
            raise Refused(403, "insufficient_scope", f"the bearer token has no {s.scope_claim} claim: it names no "
                                                     "access scope")
        if not isinstance(scope, str) or not scope.strip():
            raise Refused(403, "insufficient_scope", f"the bearer token's {s.scope_claim} claim is not a scope id")
        return Identity(subject, scope), claims

    async def verify_token(self, token: str) -> AccessToken | None:
        """The SDK's TokenVerifier: an AccessToken, or None for any refused token."""
        try:
            who, claims = self.identity(token)
        except Refused:
            return None
        return access_token(token, who, claims)


def access_token(token: str, who: Identity, claims: dict[str, Any]) -> AccessToken:
    return AccessToken(token=token, client_id=str(claims.get("azp") or claims.get("client_id") or who.subject),
                       scopes=[who.scope], expires_at=int(claims["exp"]), subject=who.subject,
                       claims={"iss": claims.get("iss")})


def describe(settings: TokenSettings | None, actor: str | None, scope: str | None) -> str:
    """The startup line: how requests are identified."""
    if settings is None:
        return (f"no token validation: every request is served as {actor or '(no actor)'} with "
                f"{f'scope {scope}' if scope else 'every customer'}")
    keys = (f"JWKS {settings.jwks}" if settings.jwks else f"public key {settings.public_key}" if settings.public_key
            else "a key generated at start")
    return (f"bearer tokens required: issuer {settings.issuer}, audience {settings.audience}, {keys}, "
            f"scope claim {settings.scope_claim}")


Check = Callable[[Identity], Awaitable[None]]


class Bearer:
    """ASGI middleware: every request to the API or to /mcp carries a valid bearer token, or is answered 401/403
    with one line (and the WWW-Authenticate header) before anything runs; the verified identity is :data:`current`
    for the request. ``check`` asks the database whether the scope exists (FN109 is a 403)."""

    def __init__(self, app: Any, verifier: Verifier, check: Check, *, protected: tuple[str, ...],
                 public: tuple[str, ...] = (), metadata_url: str | None = None) -> None:
        self.app = app
        self.public = public
        self.verifier = verifier
        self.check = check
        self.protected = protected
        self.metadata_url = metadata_url

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or not scope["path"].startswith(self.protected) or scope["path"] in self.public:
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        try:
            who, token, claims = await self.verified(scope)
        except Refused as exc:
            log.info("refused %s %s: %s", scope.get("method"), scope["path"][:100], exc)
            await self.refuse(exc, scope, receive, send)
            return
        log.debug("token verified in %.2f ms", (time.perf_counter() - started) * 1000)
        scope["user"] = AuthenticatedUser(access_token(token, who, claims))
        scope["auth"] = AuthCredentials([who.scope])
        reset = current.set(who)
        try:
            await self.app(scope, receive, send)
        finally:
            current.reset(reset)

    async def verified(self, scope: Any) -> tuple[Identity, str, dict[str, Any]]:
        header = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"authorization"), None)
        if header is None:
            raise Refused(401, None, "no bearer token: send Authorization: Bearer <token>")
        kind, _, token = header.strip().partition(" ")
        if kind.lower() != "bearer" or not token.strip():
            raise Refused(401, "invalid_request", "the Authorization header is not Bearer <token>")
        who, claims = self.verifier.identity(token.strip())
        try:
            await self.check(who)
        except errors.UnknownScope:
            raise Refused(403, "insufficient_scope",
                          f"the bearer token's scope {who.scope[:64]!r} is not defined in this database") from None
        except errors.PermissionDenied as exc:
            log.error("the database refused the verified identity: %s", exc)
            raise Refused(403, "insufficient_scope", "this server's database login may not assert identities "
                                                     "(it is not a member of footnote_gateway)") from None
        return who, token.strip(), claims

    async def refuse(self, exc: Refused, scope: Any, receive: Any, send: Any) -> None:
        parts = ['realm="footnote-pg"']
        if exc.error:
            parts += [f'error="{exc.error}"', 'error_description="{}"'.format(str(exc).replace('"', "'"))]
        if self.metadata_url:
            parts.append(f'resource_metadata="{self.metadata_url}"')
        from footnote_pg.web.app import json_response

        response = json_response(exc.status, {"error": str(exc)}, headers={"www-authenticate": "Bearer " +
                                                                           ", ".join(parts)})
        await response(scope, receive, send)
