(()=>{let d=document,s=d.currentScript.dataset,q=x=>d.querySelectorAll(x),el=(t,c)=>{t=d.createElement(t);t.className=c;return t}
q("table").forEach(t=>t.scrollWidth>t.clientWidth&&(t.tabIndex=0))
q("pre").forEach(p=>{let b=el("button","copy"),w=el("div","code");p.before(w);w.append(p,b);b.type="button";b.textContent=s.copy
b.onclick=()=>navigator.clipboard.writeText(p.innerText).then(()=>{b.textContent=s.copied;setTimeout(()=>b.textContent=s.copy,2e3)})})
q("a[data-footnote-ref]").forEach(a=>a.onclick=e=>{let u=a.parentNode,n=u.nextSibling,f=d.getElementById(a.hash.slice(1))
e.preventDefault();if(n&&n.className=="fn-note")return n.remove()
n=el("span","fn-note");n.innerHTML=f.innerHTML;n.querySelectorAll(".footnote-backref").forEach(x=>x.remove());u.after(n)})
let v=()=>{q(".model-load").forEach(b=>b.remove());import(new URL(s.viewer,location))}
if(s.viewer)q("model-viewer").forEach(x=>{let b=el("button","model-load");b.type="button";b.textContent=s.view3d;b.onclick=v;x.after(b)})})()
