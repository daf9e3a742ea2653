"""Testing helpers for users: hypothesis strategies, invariants, scenarios."""
