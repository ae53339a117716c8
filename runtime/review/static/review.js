// The review page's only script (served from this origin; the CSP forbids inline script).
// It makes the page easier to use and decides nothing: every rule is enforced by the server.
"use strict";
document.addEventListener("DOMContentLoaded", function () {
  // A proposition's evidence link scrolls to its marked bytes and outlines them until the next one.
  document.querySelectorAll("a.jump").forEach(function (link) {
    link.addEventListener("click", function (ev) {
      var anchor = document.getElementById(link.dataset.target);
      if (!anchor) { return; }
      ev.preventDefault();
      var mark = anchor.nextElementSibling;
      var fold = anchor.closest("details");
      if (fold) { fold.open = true; }
      anchor.scrollIntoView({block: "center"});
      document.querySelectorAll("mark.current").forEach(function (m) { m.classList.remove("current"); });
      if (mark) { mark.classList.add("current"); }
      history.replaceState(null, "", "#" + link.dataset.target);
    });
  });
  // Reject and request-evidence need words: their buttons wake up once there are some.
  document.querySelectorAll("form.needs-text").forEach(function (form) {
    var text = form.querySelector("textarea");
    var button = form.querySelector("button[type=submit]");
    var sync = function () { button.disabled = text.value.trim() === ""; };
    text.addEventListener("input", sync);
    sync();
  });
  // One click is one decision: a double click must not send the form twice.
  document.querySelectorAll("main form").forEach(function (form) {
    form.addEventListener("submit", function () {
      form.querySelectorAll("button[type=submit]").forEach(function (b) { b.disabled = true; });
    });
  });
});
