"""The one error printing raises: its message is a sentence for the person printing."""


class PrintError(Exception):
    pass
