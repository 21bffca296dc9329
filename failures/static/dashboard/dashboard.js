/* The dashboard's charts, drawn with plotly.js from the JSON the page carries (#dashboard-data).
   Each chart's element gets data-drawn="true" once plotted, so a browser test knows it is done.
   Names, templates and task types come from agents: every label that shows one goes through
   label(), so it is drawn as the text it is. */
(function () {
  "use strict";

  // typesetMath off: a label between dollar signs stays text even where MathJax is loaded.
  var CONFIG = {displayModeBar: false, responsive: true, typesetMath: false};
  // A colour per top pattern, then a neutral grey for everything else.
  var COLOURS = ["#2f6690", "#d1495b", "#edae49", "#00798c", "#66a182", "#8e6c8a", "#e07a5f",
                 "#3d405b"];
  var OTHER = "#b8b8b8";
  // Rates (percent) from which a bar is wide enough to hold its "successes / total" label.
  var INSIDE_FROM = 25;
  // Effectiveness bands: flagged below 0.35, works from 0.7 (lessons.scoring).
  var BANDS = [[0, 0.35, "rgba(209,73,91,0.10)"], [0.35, 0.7, "rgba(237,174,73,0.10)"],
               [0.7, 1, "rgba(102,161,130,0.12)"]];

  function cssVar(name, fallback) {
    var value = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    return value || fallback;
  }

  function layout(extra) {
    var base = {
      paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
      font: {color: cssVar("--body-fg", "#333"), size: 12},
      margin: {l: 50, r: 16, t: 8, b: 40},
      legend: {orientation: "h", y: -0.18},
      xaxis: {gridcolor: cssVar("--hairline-color", "#e8e8e8")},
      yaxis: {gridcolor: cssVar("--hairline-color", "#e8e8e8"), rangemode: "tozero"}
    };
    return Object.assign(base, extra || {});
  }

  function short(text, size) {
    return text.length > size ? text.slice(0, size - 1) + "\u2026" : text;
  }

  /* Text as a plotly label shows it literally. Plotly reads tick labels, legend names and
     hover text as a small HTML subset (<a href>, <b>, <br>, <span style>…) and decodes
     entities, so & < > are written as the entities it decodes back to those characters. */
  var ENTITIES = {"&": "&amp;", "<": "&lt;", ">": "&gt;"};
  function label(text, size) {
    var shown = size ? short(text, size) : text;
    return shown.replace(/[&<>]/g, function (c) { return ENTITIES[c]; });
  }

  function empty(element, message) {
    element.classList.add("dash-chart-empty");
    element.textContent = message;
    element.dataset.drawn = "empty";
  }

  function plot(element, traces, chartLayout) {
    return Plotly.newPlot(element, traces, chartLayout, CONFIG).then(function () {
      element.dataset.drawn = "true";
    });
  }

  function drawFailures(element, data) {
    if (!data.total) { return empty(element, "No failures in the last " + data.days.length + " days."); }
    var traces = data.series.map(function (series, index) {
      var template = label(series.template);
      return {type: "bar", name: label(series.template, 48), x: data.days, y: series.counts,
              marker: {color: COLOURS[index % COLOURS.length]},
              customdata: data.days.map(function () { return template; }),
              hovertemplate: "%{customdata}<br>%{x}: %{y} failures<extra></extra>"};
    });
    traces.push({type: "bar", name: "other patterns", x: data.days, y: data.other,
                 marker: {color: OTHER}, hovertemplate: "other patterns<br>%{x}: %{y}<extra></extra>"});
    return plot(element, traces, layout({barmode: "stack", bargap: 0.15,
                                         xaxis: {type: "date", tickformat: "%b %d"}}));
  }

  function drawRates(element, rows, what) {
    if (!rows.length) { return empty(element, "No outcomes recorded in the last 7 days."); }
    var ordered = rows.slice().reverse();  // plotly draws the first row at the bottom
    var trace = {
      type: "bar", orientation: "h", x: ordered.map(function (r) { return r.rate; }),
      y: ordered.map(function (r) { return label(r.name, 28); }),
      text: ordered.map(function (r) { return r.successes + " / " + r.total; }),
      // Inside a bar wide enough for it, else just past its end: a bar at 0% has no inside,
      // and "auto" would drop its label.
      textposition: ordered.map(function (r) { return r.rate >= INSIDE_FROM ? "inside" : "outside"; }),
      cliponaxis: false,
      marker: {color: ordered.map(function (r) { return r.rate >= 70 ? "#66a182" : r.rate >= 35 ? "#edae49" : "#d1495b"; })},
      // %{x} is formatted as the axis ticks are, its "%" suffix included.
      hovertemplate: "%{y}: %{x} (%{text})<extra>" + what + "</extra>"
    };
    var height = Math.max(220, 22 * rows.length + 60);
    return plot(element, [trace], layout({height: height, margin: {l: 170, r: 16, t: 8, b: 36},
                                          xaxis: {range: [0, 100], ticksuffix: "%"}}));
  }

  function drawEffectiveness(element, data) {
    var centres = data.edges.slice(0, -1).map(function (edge, i) {
      return (edge + data.edges[i + 1]) / 2;
    });
    var total = data.approved.concat(data.unverified).reduce(function (a, b) { return a + b; }, 0);
    if (!total) { return empty(element, "No lessons yet."); }
    var width = data.edges[1] - data.edges[0];
    var traces = [["approved", data.approved, "#2f6690"], ["unverified", data.unverified, "#9db4c0"]]
      .map(function (entry) {
        return {type: "bar", name: entry[0], x: centres, y: entry[1], width: width * 0.95,
                marker: {color: entry[2]},
                hovertemplate: "%{x:.2f}: %{y} " + entry[0] + "<extra></extra>"};
      });
    var shapes = BANDS.map(function (band) {
      return {type: "rect", xref: "x", yref: "paper", x0: band[0], x1: band[1], y0: 0, y1: 1,
              fillcolor: band[2], line: {width: 0}, layer: "below"};
    });
    var tallest = Math.max.apply(null, data.approved.map(function (n, i) { return n + data.unverified[i]; }));
    return plot(element, traces, layout({
      barmode: "stack", shapes: shapes, margin: {l: 50, r: 16, t: 30, b: 40},
      legend: {orientation: "h", x: 1, xanchor: "right", y: 1.14},
      xaxis: {range: [0, 1], dtick: 0.1, title: {text: "effectiveness"}},
      // Whole lessons: a tick step of at least one, about six ticks.
      yaxis: {title: {text: "lessons"}, rangemode: "tozero", dtick: Math.max(1, Math.ceil(tallest / 6))}
    }));
  }

  function draw() {
    var data = JSON.parse(document.getElementById("dashboard-data").textContent);
    drawFailures(document.getElementById("chart-failures"), data.failures_over_time);
    drawRates(document.getElementById("chart-success-type"), data.success.by_task_type, "task type");
    drawRates(document.getElementById("chart-success-agent"), data.success.by_agent, "agent");
    drawEffectiveness(document.getElementById("chart-effectiveness"), data.effectiveness);
  }

  // Scripts are deferred: the document is parsed when this runs.
  draw();
})();
