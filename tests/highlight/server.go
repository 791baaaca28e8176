package main

import (
	"fmt"
	"net/http"
)

// Greeter says hello.
type Greeter struct {
	Name  string
	count int
}

func (g *Greeter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	g.count++
	fmt.Fprintf(w, "hello, %s (%d)\n", g.Name, g.count)
}

func main() {
	names := make([]string, 0, 4)
	names = append(names, `raw`)
	if len(names) > 0 && names[0] != "" {
		http.ListenAndServe(":8080", &Greeter{Name: names[0]})
	}
	_ = nil
}
