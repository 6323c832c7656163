"""The phone page: the table's board, scores, log and settings in a browser on the LAN.

`board` draws each game's board as SVG from the public read model; the server (in its
own thread) hands the table's snapshots to browsers and puts their commands on the
table's event queue, so the table stays the single writer of state and journal.
"""
