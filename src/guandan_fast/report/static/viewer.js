(function(){
var SUIT={S:"\u2660",H:"\u2665",C:"\u2663",D:"\u2666"};
var viewers=[],active=null;
function esc(s){return String(s).replace(/[&<>"]/g,function(c){return{"&":"&amp;","<":"&lt;",">":"&gt;",'"':"&quot;"}[c];});}
function okey(t,D){return D.order[t.slice(1)];}
function card(t,D){
  if(t==="SB"||t==="HR"){var big=t==="HR";return '<span class="card joker'+(big?' big':'')+(D.lang==="zh"?' zh':'')+'" title="'+esc(D.cards[t])+'">'+esc(D.joker[t])+'<span class="s">'+(big?"\u2605":"\u2606")+'</span></span>';}
  var s=t[0],r=t.slice(1),c="card"+(s==="H"||s==="D"?" red":"")+(s==="H"&&r===D.level?" wild":"");
  return '<span class="'+c+'" title="'+esc(D.cards[t]||t)+'">'+(D.faces[r]||r)+'<span class="s">'+SUIT[s]+'</span></span>';
}
function cards(str,D){
  var toks=str?str.split(" "):[];toks.sort(function(a,b){return okey(b,D)-okey(a,D)||("SHCD".indexOf(a[0])-"SHCD".indexOf(b[0]));});
  var out=[],prev=null;toks.forEach(function(t){var k=okey(t,D);if(prev!==null&&k!==prev)out.push('<span class="gap"></span>');out.push(card(t,D));prev=k;});
  return '<span class="cards">'+out.join("")+'</span>';
}
function graphs(root){
  return (root.getAttribute("data-graph")||"").split(" ").map(function(id){return document.getElementById(id);}).filter(Boolean);
}
function Viewer(root){
  this.root=root;this.D=JSON.parse(root.querySelector("script.gd-data").textContent);
  this.i=Math.max(0,Math.min(this.D.start,this.D.frames.length-1));var me=this;
  root.querySelectorAll("button[data-go]").forEach(function(b){b.addEventListener("click",function(){active=me;me.go(b.getAttribute("data-go"));});});
  root.addEventListener("click",function(){active=me;});
  graphs(root).forEach(function(g){g.querySelectorAll(".pt").forEach(function(p){p.addEventListener("click",function(){active=me;me.show(+p.getAttribute("data-i"));root.scrollIntoView({behavior:"smooth"});});});});
  document.querySelectorAll('tr[data-viewer="'+root.id+'"]').forEach(function(tr){tr.addEventListener("click",function(ev){if(ev.target.closest("summary"))return;active=me;me.show(+tr.getAttribute("data-i"));root.scrollIntoView({behavior:"smooth"});});});
  // a horizontal swipe on the table steps (left: next, right: previous)
  var x0=null,y0=null,stage=root.querySelector(".stage")||root;
  stage.addEventListener("touchstart",function(ev){var t=ev.changedTouches[0];x0=t.clientX;y0=t.clientY;},{passive:true});
  stage.addEventListener("touchend",function(ev){if(x0===null)return;var t=ev.changedTouches[0],dx=t.clientX-x0,dy=t.clientY-y0;x0=null;
    if(Math.abs(dx)>40&&Math.abs(dx)>1.5*Math.abs(dy)){active=me;me.go(dx<0?"next":"prev");}},{passive:true});
  this.show(this.i);
}
Viewer.prototype.mistake=function(step){
  var F=this.D.frames;for(var j=this.i+step;j>=0&&j<F.length;j+=step){if(F[j].mistake)return j;}return this.i;
};
Viewer.prototype.go=function(w){var n=this.D.frames.length;
  if(this.ln){var m=this.ln.line.steps.length;
    if(w==="next"||w==="prev"){this.ln.j=Math.max(0,Math.min(m-1,this.ln.j+(w==="next"?1:-1)));this.showLine();return;}
    this.ln=null;}
  var i={first:0,prev:this.i-1,next:this.i+1,last:n-1,prevmistake:this.mistake(-1),nextmistake:this.mistake(1)}[w];
  this.show(Math.max(0,Math.min(n-1,i)));};
Viewer.prototype.show=function(i){
  var D=this.D,f=D.frames[i],r=this.root,L=D.labels;this.i=i;this.ln=null;r.classList.remove("inline");
  this.hands(f.hands,f.seat);
  r.querySelector(".pos").textContent=D.decision.replace("{i}",i+1).replace("{n}",D.frames.length)+" \u00b7 "+f.ref;
  r.querySelector(".tbl").innerHTML=esc(L.table)+": "+(f.table?esc(f.table):esc(L.free_lead));
  r.querySelector(".trick").innerHTML=f.round.length?'<span class="legend">'+esc(L.round_so_far)+':</span> '+f.round.map(function(p){return '<span class="play"><span class="who t'+(p[0]%2)+'">'+esc(D.names[p[0]])+'</span> '+p[1]+'</span>';}).join(""):"";
  r.querySelector(".what").innerHTML=esc(f.what)+(f.forced?' <span class="tag forced" title="'+esc(L.forced_help)+'">'+esc(L.forced)+'</span>':"")+(f.dd?' \u00b7 '+esc(L.dd)+" "+esc(f.dd):"")+(f.sd?' \u00b7 '+esc(L.sd)+" "+esc(f.sd):"")+f.marks.map(function(m){return ' <span class="tag">'+esc(m)+'</span>';}).join("");
  var rows=['<tr><th>'+esc(L.candidates)+'</th><th>'+esc(L.dd)+'</th><th>'+esc(L.sd)+'</th></tr>'];
  f.cands.forEach(function(c){rows.push('<tr class="'+(c.chosen?"chosen ":"")+(c.best?"best":"")+'"><td>'+c.move+(c.chosen?' <span class="tag first">'+esc(L.played)+'</span>':'')+'</td><td>'+esc(c.double||"")+'</td><td>'+esc(c.single||"")+'</td></tr>');});
  if(f.more)rows.push('<tr><td colspan="3" class="legend more">+'+f.more+' \u00b7 '+esc(D.more_moves.replace("{n}",f.more))+'</td></tr>');
  r.querySelector("table.cand").innerHTML=rows.join("");
  var cs=r.querySelector(".cands .count");if(cs)cs.textContent=" ("+(f.cands.length+f.more)+")";
  graphs(r).forEach(function(g){var pts=g.querySelectorAll('.pt[data-i="'+i+'"]'),cur=g.querySelector(".cursor");
    if(pts.length&&cur){var x=pts[0].getAttribute("cx");cur.setAttribute("x1",x);cur.setAttribute("x2",x);cur.setAttribute("opacity","1");}});
  document.querySelectorAll('tr[data-viewer="'+r.id+'"]').forEach(function(tr){tr.classList.toggle("cur",+tr.getAttribute("data-i")===i);});
  this.linebar();
};
Viewer.prototype.hands=function(hs,turn){
  var D=this.D,r=this.root,L=D.labels;
  for(var s=0;s<4;s++){
    var el=r.querySelector('.seat[data-seat="'+s+'"]'),h=hs[s],n=h?h.split(" ").length:0;
    el.className="seat t"+(s%2)+(s===turn?" turn":"");
    el.querySelector(".n").textContent=" \u00b7 "+n;
    el.querySelector(".hc").innerHTML=n?cards(h,D):'<span class="legend">'+esc(L.out)+'</span>';
  }
};
// the better line of a mark: its buttons under the controls; while it
// plays, next/previous (buttons, arrow keys, swipe) step through the line
// on the table and the hands, and "back to the deal" (or any other jump)
// returns to the real deal at the same decision
Viewer.prototype.linebar=function(){
  var me=this,f=this.D.frames[this.i],L=this.D.labels,bar=this.root.querySelector(".linebar"),ls=f.lines||[];
  if(!bar)return;
  if(this.ln){bar.innerHTML='<button type="button" class="back" data-line="back">'+esc(L.back_to_deal)+'</button> <span class="legend">'+esc(this.ln.line.view)+' '+esc(this.ln.line.title)+'</span>';}
  else{bar.innerHTML=ls.map(function(l,k){return '<button type="button" class="playline" data-line="'+k+'">'+esc(L.play_line)+' ('+esc(l.view)+')</button>';}).join(" ");}
  bar.querySelectorAll("button[data-line]").forEach(function(b){b.addEventListener("click",function(ev){ev.stopPropagation();active=me;
    var k=b.getAttribute("data-line");if(k==="back"){me.show(me.i);}else{me.ln={line:ls[+k],j:0};me.showLine();}});});
};
Viewer.prototype.showLine=function(){
  var D=this.D,r=this.root,l=this.ln.line,j=this.ln.j,st=l.steps[j],f=D.frames[this.i];
  r.classList.add("inline");
  this.hands(st.hands,st.next);
  r.querySelector(".pos").textContent=D.line_step.replace("{i}",j+1).replace("{n}",l.steps.length)+" \u00b7 "+f.ref;
  r.querySelector(".tbl").innerHTML=esc(l.view)+" "+esc(l.title);
  r.querySelector(".trick").innerHTML=l.steps.slice(Math.max(0,j-7),j+1).map(function(p){return '<span class="play"><span class="who t'+(p.seat%2)+'">'+esc(D.names[p.seat])+'</span> '+p.play+'</span>';}).join("");
  r.querySelector(".what").innerHTML=esc(st.what)+(j===l.steps.length-1&&l.end?' \u00b7 '+esc(l.end):"");
  this.linebar();
};
document.addEventListener("keydown",function(ev){
  var v=active||viewers[0];if(!v)return;
  if(ev.key==="ArrowRight"){v.go("next");ev.preventDefault();}
  else if(ev.key==="ArrowLeft"){v.go("prev");ev.preventDefault();}
  else if(ev.key==="Home"){v.go("first");ev.preventDefault();}
  else if(ev.key==="End"){v.go("last");ev.preventDefault();}
});
document.querySelectorAll(".viewer").forEach(function(el){viewers.push(new Viewer(el));});
window.gdViewers=viewers;
})();
