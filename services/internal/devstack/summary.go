package devstack

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"sort"
)

func jsonIndent(v any) ([]byte, error) { return json.MarshalIndent(v, "", "  ") }

// Print writes the human summary: where everything is and how to call it.
func (s Summary) Print(w io.Writer) {
	fmt.Fprintln(w, "\nSiteplane is running.")
	if s.GatewayURL != "" {
		fmt.Fprintf(w, "  Website (open it):    %s/\n", s.GatewayURL)
		fmt.Fprintf(w, "  Gateway (site URL):   %s\n", s.GatewayURL)
		fmt.Fprintf(w, "  REST root:            %s/\n", s.RESTRoot)
		fmt.Fprintf(w, "  Marketplace API:      %s/api/\n", s.GatewayURL)
	}
	names := make([]string, 0, len(s.ServiceURLs))
	for n := range s.ServiceURLs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-21s %s\n", n+" service:", s.ServiceURLs[n])
	}
	fmt.Fprintf(w, "  Admin user:           %s\n", s.AdminUser)
	fmt.Fprintf(w, "  Admin app password:   %s\n", s.AdminAppPassword)
	if s.AdminLoginPassword != "" {
		fmt.Fprintf(w, "  Admin login password: %s  (sign in at %s/cms-login.php)\n", s.AdminLoginPassword, s.GatewayURL)
	}
	if s.MarketplaceKey != "" {
		fmt.Fprintf(w, "  Marketplace API key:  %s\n", s.MarketplaceKey)
	}
	if s.UploadsDir != "" {
		fmt.Fprintf(w, "  Uploaded files:       %s\n", s.UploadsDir)
	}
	env := filepath.Join(filepath.Dir(s.LogDir), "env")
	fmt.Fprintf(w, "\nEverything above is in %s:  . %s\nLogs: %s\n", env, env, s.LogDir)
	fmt.Fprintln(w, "\nTry:")
	if s.GatewayURL != "" {
		fmt.Fprintln(w, `  xdg-open "$GATEWAY_URL/"   # the website, rendered from the block theme`)
		fmt.Fprintln(w, `  curl -s "$REST_ROOT/"`)
		fmt.Fprintln(w, `  curl -s "$REST_ROOT/cms/v2/posts?per_page=2&_fields=id,title"`)
		fmt.Fprintln(w, `  curl -s -u "$ADMIN_USER:$ADMIN_APP_PASSWORD" "$REST_ROOT/cms/v2/users/me"`)
		if s.SampleImage != "" {
			fmt.Fprintf(w, "  curl -s -u \"$ADMIN_USER:$ADMIN_APP_PASSWORD\" -H 'Content-Type: image/jpeg' \\\n"+
				"       -H 'Content-Disposition: attachment; filename=\"sample.jpg\"' --data-binary @%s \\\n"+
				"       \"$REST_ROOT/cms/v2/media?title=Sample&_fields=id,source_url,media_details.sizes\"\n", shellQuote(s.SampleImage))
		}
		if s.MarketplaceKey != "" {
			fmt.Fprintln(w, `  curl -s -H "Authorization: Bearer $MARKETPLACE_API_KEY" "$GATEWAY_URL/api/account/details"`)
		}
	} else if u := s.ServiceURLs["marketplace"]; u != "" && s.MarketplaceKey != "" {
		fmt.Fprintln(w, `  curl -s "$MARKETPLACE_URL/api/account/details?api_key=$MARKETPLACE_API_KEY"`)
	}
}
