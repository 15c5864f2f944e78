"""The hub's web console (``rummikub-web``): pages any phone on the venue network opens.

The public pages read-only and without a login: find your table, the standings of each
stage, and every table's live state, updated in the open page by server-sent events.
:mod:`hub.web.views` (pure: what the pages show, from the event store's fold and the hall
model), :mod:`hub.web.live` (the tables' live state from the broker, and the updates of
the open pages), :mod:`hub.web.pages` (what every page shares: the event as the command
line reads it, the Jinja2 templates in ``templates/`` rendered in the reader's language),
:mod:`hub.web.public` (the public pages and the event stream ``/live``), one module per
further area with its ``routes(pages)``, :mod:`hub.web.app` (the Starlette application
joining the areas, ``static/``'s script and style sheet), :mod:`hub.web.serve` (the
command, its settings, uvicorn).
"""
