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
* :mod:`~hub.exports.files`: every file of ``export csv`` and of the event archive.

CSV files are written by the CLI as UTF-8 **with** a byte-order mark: Excel opens a
double-clicked CSV without one in the Windows code page (cp1250 in Poland) and turns
"Łódź" into "ĹĂłdĹş"; with the mark it reads UTF-8. Google Sheets and LibreOffice read
both and drop the mark. The delimiter is ``,`` (what Google Sheets and most tools
expect); ``export csv --semicolon`` writes ``;`` for a Polish Excel, whose list
separator is ``;``.

Small points are stored and shown one way everywhere, 002 included: the winner plus,
higher is better (RULES.md §3.3).
"""
