"""The original programs' computer players, re-implemented from the specs: each game's
``classic`` bot, the baseline that the strong bots are measured against."""
