// Sortable tables of printplay's simulation report: a header button sorts its column, a
// second press reverses the order. Cells sort by their data-sort value, else their text.
"use strict";
document.querySelectorAll("table.sortable").forEach(function (table) {
  var heads = table.querySelectorAll("thead th");
  heads.forEach(function (th, column) {
    var button = th.querySelector("button");
    if (!button) {
      return;
    }
    button.addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      heads.forEach(function (other) {
        other.removeAttribute("aria-sort");
      });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var body = table.tBodies[0];
      var rows = Array.prototype.slice.call(body.rows);
      var key = function (row) {
        var cell = row.cells[column];
        var value = cell.getAttribute("data-sort");
        var text = value !== null ? value : cell.textContent.trim();
        var number = parseFloat(text);
        return isNaN(number) ? text.toLowerCase() : number;
      };
      rows.sort(function (a, b) {
        var x = key(a);
        var y = key(b);
        var order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      rows.forEach(function (row) {
        body.appendChild(row);
      });
    });
  });
});
