"""nampi generator: spec/*.yaml -> templates/*.j2 -> generated/."""
