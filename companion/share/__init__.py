"""Sharing one game with every device at the table (issue 5).

Pure logic, no Flet: the codes (codes), slowing down wrong tries (limiter), who joined
and what each device may do (table), live updates and the rights check on every store
change (live), QR codes (qr), the address phones can reach (address) and whether the
table is shared now (sharing). The screens are companion/ui/session.py, join.py,
share_panel.py and table_view.py; docs/sharing.md says what sharing exposes.
"""
