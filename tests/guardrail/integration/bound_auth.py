"""A custom auth function loaded by the test proxy (general_settings.custom_auth): the key
`sk-bound-strict` stands for a virtual key whose metadata binds the guard scope `strict`, as an
operator would set it on a key in the proxy's database (which these tests run without)."""

from fastapi import HTTPException
from litellm.proxy._types import UserAPIKeyAuth


async def user_api_key_auth(request, api_key: str) -> UserAPIKeyAuth:  # noqa: ANN001
    if api_key == "sk-bound-strict":
        return UserAPIKeyAuth(api_key=api_key, metadata={"guard_scope": "strict"})
    if api_key == "sk-free":
        return UserAPIKeyAuth(api_key=api_key, metadata={})
    raise HTTPException(status_code=401, detail="unknown key")
