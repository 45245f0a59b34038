// the drills page (report/drills.py): a pick reveals the answer; the
// selectors filter the drills by player and view. Plain ES5.
(function(){
var drills=document.querySelectorAll(".drill");
Array.prototype.forEach.call(drills,function(dr){
  var bs=dr.querySelectorAll("button.choice");
  Array.prototype.forEach.call(bs,function(b){b.addEventListener("click",function(){
    var c=b.getAttribute("data-c");
    dr.classList.add("done");
    Array.prototype.forEach.call(bs,function(x){x.classList.toggle("picked",x===b);x.setAttribute("aria-pressed",x===b?"true":"false");});
    Array.prototype.forEach.call(dr.querySelectorAll(".verdict"),function(v){v.hidden=v.getAttribute("data-c")!==c;});
    dr.querySelector(".reveal").hidden=false;
  });});
});
var sel=document.querySelectorAll("select.drill-filter"),shown=document.querySelector(".drill-filters .shown");
function apply(){
  var want={},k=0;
  Array.prototype.forEach.call(sel,function(s){want[s.getAttribute("data-key")]=s.value;});
  Array.prototype.forEach.call(drills,function(dr){
    var show=true;for(var key in want){if(want[key]&&dr.getAttribute("data-"+key)!==want[key])show=false;}
    dr.style.display=show?"":"none";if(show)k++;
  });
  if(shown)shown.textContent=shown.getAttribute("data-tpl").replace("{k}",k).replace("{n}",drills.length);
}
Array.prototype.forEach.call(sel,function(s){s.addEventListener("change",apply);});
})();
