"""ruleset"""
