// The web console's live updates: follows the page's server-sent events (data-live on
// <body>) and replaces what changed. No library, no build step. Without it (or without
// JavaScript) every page still works: it shows the state when it was loaded.
"use strict";
(function () {
  const body = document.body;
  // Waiting times count on by themselves: data-waited is the seconds when the element
  // came (with the page, or with a part fetched again).
  const waited = (seconds) => {
    const s = Math.max(0, Math.floor(seconds));
    if (s < 60) return s + " s";
    const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
    const mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(r).padStart(2, "0");
  };
  setInterval(() => {
    const now = Date.now();
    for (const el of document.querySelectorAll("[data-waited]")) {
      if (!el.dataset.seen) el.dataset.seen = String(now);
      el.textContent = waited(Number(el.dataset.waited) + (now - Number(el.dataset.seen)) / 1000);
    }
  }, 1000);
  const address = body.dataset.live;
  if (!address || !window.EventSource) return;
  const state = document.getElementById("live-state");
  // Turned away (too many pages follow the console): said until a stream is taken.
  let busy = false;
  const say = (live) => {
    state.hidden = false;
    state.textContent = live ? body.dataset.liveOn
      : busy ? body.dataset.liveBusy : body.dataset.liveOff;
    state.className = live ? "live-state on" : "live-state off";
  };
  const source = new EventSource(address);
  source.addEventListener("link", (e) => {
    busy = false;
    say(JSON.parse(e.data).live);
  });
  source.addEventListener("busy", () => {
    busy = true;
    say(false);
  });
  source.addEventListener("error", () => say(false));
  source.addEventListener("table", (e) => {
    const data = JSON.parse(e.data);
    const old = document.getElementById("table-" + data.table);
    const holder = document.createElement("div");
    holder.innerHTML = data.html;
    const card = holder.firstElementChild;
    if (old) {
      old.replaceWith(card);
    } else if (body.dataset.allTables) {
      const all = document.getElementById(body.dataset.allTables);
      const after = Array.from(all.children).find(
        (c) => Number(c.id.slice(6)) > data.table);
      all.insertBefore(card, after || null);
    }
  });
  let fetching = false;
  const refresh = async () => {
    const part = body.dataset.refresh;
    if (!part || fetching) return;
    fetching = true;
    try {
      const answer = await fetch(window.location.href, {cache: "no-store"});
      if (!answer.ok) return;
      const page = new DOMParser().parseFromString(await answer.text(), "text/html");
      const fresh = page.getElementById(part);
      if (fresh) document.getElementById(part).replaceWith(fresh);
    } finally {
      fetching = false;
    }
  };
  // data-refresh-on: the events after which the page's part is fetched again.
  for (const kind of (body.dataset.refreshOn || "standings").split(" ")) {
    source.addEventListener(kind, refresh);
  }
})();
