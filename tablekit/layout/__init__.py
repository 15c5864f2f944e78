"""The table display's scenes as plain values (no pygame): :mod:`~tablekit.layout.scene`
(panels, boxes, the screen's regions), :mod:`~tablekit.layout.text` (fitting text),
:mod:`~tablekit.layout.play`, :mod:`~tablekit.layout.check` and
:mod:`~tablekit.layout.entry` (the screens), :mod:`~tablekit.layout.compose` (the whole
scene for a view at a time). :mod:`tablekit.display` draws them."""
