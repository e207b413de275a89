"""The Flet app: one module per screen, each a plain-Python state object plus a thin view.

The state objects make every decision (what to show, what is allowed, what went wrong)
and are tested without a browser; the views only render them and forward taps.
"""
