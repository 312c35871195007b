"""Work and news between processes: the bus of game events (:mod:`.bus`), the fair queue of the
computer's work (:mod:`.queue`) and where the clocks read the time (:mod:`.timesource`)."""
