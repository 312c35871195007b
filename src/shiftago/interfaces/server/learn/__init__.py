"""The lessons of ``/learn`` served: their words in the request's language, a try
judged, and an account's progress (the lessons themselves are
:mod:`shiftago.interfaces.shared.learn`)."""
