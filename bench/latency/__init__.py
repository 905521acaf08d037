"""The latency benchmark's parts (bench/bot_latency.py is the script).

``games`` says what a table of each game looks like and how its simulated people choose,
``players`` finds the controls a person can see and presses them, ``run`` hosts the tables on
the real bot against the fake Discord and measures, ``report`` prints the figures.
"""
