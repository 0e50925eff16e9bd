package wirepeer

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rand"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// verifier11g is the 11g password verifier type (SHA-1 of password and
// salt). The peer offers it because it needs no key stretching; 12c
// servers may offer 18453 (PBKDF2) instead, which the peer does not.
const verifier11g = 6949

// o5logon is the server side of O5LOGON for one session.
type o5logon struct {
	salt      []byte
	serverKey []byte // the server's session key, 48 bytes
	passKey   []byte // the key the password is encrypted with
}

// authRequest reads the common head of both authentication calls: the
// user, the logon mode and the key/value pairs.
func (s *session) authRequest() (user string, kv map[string]string, err error) {
	r := s.r
	if _, err = r.ub1(); err != nil { // pointer to the user name
		return
	}
	userLen, err := r.ub4()
	if err != nil {
		return
	}
	if _, err = r.ub4(); err != nil { // logon mode
		return
	}
	if _, err = r.ub1(); err != nil { // pointer to the key/value list
		return
	}
	n, err := r.ub4()
	if err != nil {
		return
	}
	if _, err = r.bytes(2); err != nil { // pointers to the output list and its length
		return
	}
	if userLen > 0 {
		var b []byte
		if b, _, err = r.clr(); err != nil {
			return
		}
		user = string(b)
	}
	kv = make(map[string]string, n)
	for i := 0; i < n; i++ {
		var k, v string
		if k, v, _, err = r.keyVal(); err != nil {
			return
		}
		kv[k] = v
	}
	return
}

// authOne answers the first call: the server's encrypted session key and
// the verifier's salt.
func (s *session) authOne(w *ttcWriter) error {
	user, _, err := s.authRequest()
	if err != nil {
		return err
	}
	s.user = user
	a := &s.auth
	a.salt = random(10)
	a.serverKey = random(48)
	enc, err := cbc(true, passwordKey11g(s.p.facts.Password, a.salt), a.serverKey)
	if err != nil {
		return err
	}
	w.ub1(msgParameter)
	w.ub(2)
	w.keyVal("AUTH_SESSKEY", strings.ToUpper(hex.EncodeToString(enc)), 0)
	w.keyVal("AUTH_VFR_DATA", strings.ToUpper(hex.EncodeToString(a.salt)), verifier11g)
	s.summary(w, summary{})
	return nil
}

// authTwo checks the password the client encrypted with the combined
// session keys and answers with the session's properties and NLS values.
func (s *session) authTwo(c *Call, w *ttcWriter) error {
	_, kv, err := s.authRequest()
	if err != nil {
		return err
	}
	a := &s.auth
	if a.serverKey == nil {
		return fmt.Errorf("second authentication call without the first")
	}
	password, err := a.password(kv["AUTH_SESSKEY"], kv["AUTH_PASSWORD"], s.p.facts.Password)
	if err != nil {
		return err
	}
	if !strings.EqualFold(s.user, s.p.facts.User) || password != s.p.facts.Password {
		s.fail(w, c, 1017, "invalid username/password; logon denied")
		return nil
	}
	if ok, err := s.openBackend(w, c); !ok {
		return err
	}
	f := &s.p.facts
	props := [][2]string{
		{"AUTH_VERSION_STRING", "- Production"},
		{"AUTH_VERSION_SQL", "19"},
		{"AUTH_VERSION_NO", strconv.Itoa(19<<24 | 3<<20)},
		{"AUTH_SESSION_ID", strconv.Itoa(100 + s.id)},
		{"AUTH_SERIAL_NUM", strconv.Itoa(1000 + s.id)},
		{"AUTH_SC_SERVICE_NAME", f.Service},
		{"AUTH_SC_INSTANCE_NAME", "wirepeer"},
		{"AUTH_SC_DBUNIQUE_NAME", "WIREPEER"},
		{"AUTH_SC_DB_DOMAIN", ""},
		{"AUTH_SVR_RESPONSE", a.serverResponse()},
	}
	w.ub1(msgParameter)
	w.ub(uint64(len(props)))
	for _, p := range props {
		w.keyVal(p[0], p[1], 0)
	}
	// The session's NLS values (server-side piggyback "session sync"):
	// with them go-ora does not query NLS_SESSION_PARAMETERS.
	nls := [][2]string{
		{"AUTH_NLS_LXLAN", "AMERICAN"},
		{"AUTH_NLS_LXCTERRITORY", "AMERICA"},
		{"SESSION_NLS_LXCCHARSET", charsetName(f.Charset)},
		{"AUTH_NLS_LXCNUMERICS", ".,"},
		{"AUTH_NLS_LXCDATEFM", "DD-MON-RR"},
		{"AUTH_NLS_LXCSTMPFM", "DD-MON-RR HH.MI.SSXFF AM"},
		{"SESSION_NLS_LXCNLSLENSEM", "BYTE"},
	}
	w.ub1(msgServerSide, 5)
	w.ub(0) // data types
	w.ub1(0)
	w.ub(uint64(len(nls)))
	w.ub1(0)
	for _, p := range nls {
		w.keyVal(p[0], p[1], 0)
	}
	w.ub(0) // flags
	s.summary(w, summary{})
	return nil
}

// password recovers the client's session key and with it the password.
func (a *o5logon) password(encClientKey, encPassword, want string) (string, error) {
	ck, err := hex.DecodeString(encClientKey)
	if err != nil || len(ck) != len(a.serverKey) {
		return "", fmt.Errorf("AUTH_SESSKEY from the client: %d hex bytes, want %d", len(encClientKey), 2*len(a.serverKey))
	}
	clientKey, err := cbc(false, passwordKey11g(want, a.salt), ck)
	if err != nil {
		return "", err
	}
	// The password key mixes bytes 16..39 of both session keys.
	mix := make([]byte, 24)
	for i := range mix {
		mix[i] = a.serverKey[16+i] ^ clientKey[16+i]
	}
	h1, h2 := md5.Sum(mix[:16]), md5.Sum(mix[16:])
	a.passKey = append(h1[:], h2[:8]...)
	ep, err := hex.DecodeString(encPassword)
	if err != nil || len(ep) < 32 || len(ep)%16 != 0 {
		return "", fmt.Errorf("AUTH_PASSWORD from the client is not whole AES blocks (%d hex bytes)", len(encPassword))
	}
	plain, err := cbc(false, a.passKey, ep)
	if err != nil {
		return "", err
	}
	pad := int(plain[len(plain)-1])
	if pad == 0 || pad > 16 || !bytes.Equal(plain[len(plain)-pad:], bytes.Repeat([]byte{byte(pad)}, pad)) {
		return "", nil // a wrong key gives noise: a wrong password
	}
	return string(plain[16 : len(plain)-pad]), nil
}

// serverResponse proves to the client that the server knew the password
// (go-ora does not check it).
func (a *o5logon) serverResponse() string {
	msg := append(random(16), "SERVER_TO_CLIENT"...)
	out, err := cbc(true, a.passKey, pkcs7(msg))
	if err != nil {
		return ""
	}
	return strings.ToUpper(hex.EncodeToString(out))
}

// passwordKey11g is the 11g verifier's key: SHA-1 of password and salt,
// padded to 24 bytes for AES-192.
func passwordKey11g(password string, salt []byte) []byte {
	h := sha1.Sum(append([]byte(password), salt...))
	return append(h[:], 0, 0, 0, 0)
}

// cbc encrypts or decrypts whole blocks with AES-CBC and a zero IV.
func cbc(encrypt bool, key, data []byte) ([]byte, error) {
	blk, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	if len(data)%blk.BlockSize() != 0 {
		return nil, fmt.Errorf("%d bytes are not whole AES blocks", len(data))
	}
	out := make([]byte, len(data))
	iv := make([]byte, blk.BlockSize())
	if encrypt {
		cipher.NewCBCEncrypter(blk, iv).CryptBlocks(out, data)
	} else {
		cipher.NewCBCDecrypter(blk, iv).CryptBlocks(out, data)
	}
	return out, nil
}

func pkcs7(b []byte) []byte {
	n := 16 - len(b)%16
	return append(b, bytes.Repeat([]byte{byte(n)}, n)...)
}

func random(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return b
}

func charsetName(id int) string {
	switch id {
	case AL32UTF8:
		return "AL32UTF8"
	case WE8MSWIN1252:
		return "WE8MSWIN1252"
	case AL16UTF16:
		return "AL16UTF16"
	}
	return strconv.Itoa(id)
}
