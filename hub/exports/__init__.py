"""Tables, CSV files and printable HTML documents from a :class:`~hub.competition.Competition`.

Pure: every function returns text; the CLI writes the files, and :mod:`hub.printing`
turns the HTML documents into PDF. One :class:`~hub.exports.grid.Grid` (title, headers,
rows) feeds the terminal, the CSV and the HTML, so they always agree.

* :mod:`~hub.exports.grid`: the grid and the cells every table shares;
* :mod:`~hub.exports.notes`: the event's state and decisions in words;
* :mod:`~hub.exports.standings`: standings, the final ranking, a player's places;
* :mod:`~hub.exports.results`: games' results and their corrections;
* :mod:`~hub.exports.lists`: seating, players, sanctions, ties, consolation seatings;
* :mod:`~hub.exports.pages`: the A4 HTML page and a grid as an HTML table;
* :mod:`~hub.exports.printouts`: the documents printed for a round;
* :mod:`~hub.exports.files`: every file of ``export csv`` and of the event archive;
* :mod:`~hub.exports.words`: the words the exports put in their cells.

Every export is made in one language, the :class:`~tablekit.shared.i18n.Words` it is
given (the command line passes its reader's): titles, headers and the cells that are
words (:mod:`~hub.exports.words`: stage names the presets make, states, sanctions,
titles), dates in that language's form (:mod:`tablekit.shared.forms`), HTML pages with
its ``lang``.

CSV files are written by the CLI as UTF-8 **with** a byte-order mark: Excel opens a
double-clicked CSV without one in the Windows code page (cp1250 in Poland) and turns
"Łódź" into "ĹĂłdĹş"; with the mark it reads UTF-8. Google Sheets and LibreOffice read
both and drop the mark. Each file is written for its reader's spreadsheet
(:class:`~hub.exports.grid.Sheet`): in Polish ``;`` between fields (a Polish Excel's list
separator, its decimal mark being the comma), ``1520,5``, local times a Polish Excel reads
as dates, Polish column names and words; in English ``,``, ``1520.5``, ISO 8601 times and
the column names and codes scripts have always read. ``export csv --semicolon`` writes
``;`` in either language.

Small points are stored and shown one way everywhere, 002 included: the winner plus,
higher is better (RULES.md §3.3).
"""
