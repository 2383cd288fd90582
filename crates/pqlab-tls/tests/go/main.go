// Command goclient is the Go crypto/tls client of pqlab-tls's go_client test: it connects
// with Go's default settings (default curve preferences, which offer X25519MLKEM768 first),
// trusts only the given CA, sends one line, reads the echo and prints what was negotiated.
// Standard library only.
package main

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"
)

func main() {
	addr := flag.String("addr", "", "server HOST:PORT")
	caFile := flag.String("ca", "", "CA certificate (PEM)")
	serverName := flag.String("server-name", "localhost", "name to check the certificate against")
	message := flag.String("message", "hello from Go", "line to send")
	flag.Parse()
	if err := run(*addr, *caFile, *serverName, *message); err != nil {
		fmt.Fprintln(os.Stderr, "goclient:", err)
		os.Exit(1)
	}
}

func run(addr, caFile, serverName, message string) error {
	pem, err := os.ReadFile(caFile)
	if err != nil {
		return err
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(pem) {
		return fmt.Errorf("%s: no certificate", caFile)
	}
	// Default CurvePreferences (nil): Go's own choice, X25519MLKEM768 preferred.
	config := &tls.Config{RootCAs: roots, ServerName: serverName}
	conn, err := tls.Dial("tcp", addr, config)
	if err != nil {
		return err
	}
	defer conn.Close()
	if err := conn.SetDeadline(time.Now().Add(20 * time.Second)); err != nil {
		return err
	}
	state := conn.ConnectionState()
	fmt.Printf("version: %s\n", tls.VersionName(state.Version))
	fmt.Printf("group: %s\n", state.CurveID)
	fmt.Printf("cipher suite: %s\n", tls.CipherSuiteName(state.CipherSuite))
	if _, err := fmt.Fprintf(conn, "%s\n", message); err != nil {
		return err
	}
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return err
	}
	fmt.Printf("echo: %s\n", strings.TrimSuffix(line, "\n"))
	return nil
}
