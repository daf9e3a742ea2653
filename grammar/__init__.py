"""The grammar of the card language (`rules.lark`), shipped as package data."""
