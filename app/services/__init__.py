"""Services: one transaction per change of a table. The web layer calls these; these call the engine
and the models. Nothing here knows about requests, sessions or HTML."""
