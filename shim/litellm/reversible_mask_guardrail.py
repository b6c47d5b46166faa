from reversible_mask.guardrail import ReversibleMaskGuardrail as ReversibleMaskGuardrail  # noqa: F401
